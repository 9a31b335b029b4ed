package schedule

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/backend/tools"
)

// JobManager is what the cron tool needs; the schedule service (backend/reminders)
// implements it.
type JobManager interface {
	AddJob(spec JobSpec) (Job, error)
	ListJobs() ([]Job, error)
	RemoveJob(id string) error
}

// Post is a message the model sends to the user with the message tool.
type Post struct {
	SessionID  string
	RunID      string
	Content    string
	Unattended bool
	Channel    string
}

// PostFunc delivers a Post: into its chat and as a desktop notification.
type PostFunc func(ctx context.Context, p Post) error

// Tools returns the cron and message tools. now and loc default to
// time.Now and time.Local (the user's zone).
func Tools(jobs JobManager, post PostFunc, now func() time.Time, loc *time.Location) []tools.Tool {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.Local
	}
	c, m := &cronTool{jobs: jobs, now: now, loc: loc}, &messageTool{post: post}
	return []tools.Tool{
		tools.New(tools.Def[cronArgs]{Name: "cron", Short: "Add, list or remove reminders.", Run: c.run,
			Description: "Reminders: add (message + one of at, every_seconds, cron_expr), list, remove (id). Each runs message later as a task and notifies the user."}),
		tools.New(tools.Def[messageArgs]{Name: "message", Short: "Message the user now.", Run: m.run,
			Description: "Send content to the user now, in this chat and as a notification."}),
	}
}

// cronTool manages reminders from chat (docs/design/background.md#reminders). Descriptions are terse:
// every word here is sent with every request (docs/design/prompt-size.md#the-first-request-target).
type cronTool struct {
	jobs JobManager
	now  func() time.Time
	loc  *time.Location
}

type cronArgs struct {
	Action       string `json:"action" enum:"add,list,remove"`
	Message      string `json:"message,omitempty"`
	Name         string `json:"name,omitempty"`
	At           string `json:"at,omitempty" jsonschema:"ISO time, user's zone, or delay: in 10 minutes"`
	EverySeconds int64  `json:"every_seconds,omitempty"`
	CronExpr     string `json:"cron_expr,omitempty" jsonschema:"5 fields"`
	TZ           string `json:"tz,omitempty" jsonschema:"IANA zone"`
	ID           string `json:"id,omitempty"`
}

func (c *cronTool) run(ctx context.Context, a cronArgs) (tools.Result, error) {
	if c.jobs == nil {
		return tools.Errorf("reminders are not available here"), nil
	}
	switch a.Action {
	case "list":
		jobs, err := c.jobs.ListJobs()
		if err != nil {
			return tools.Result{}, err
		}
		if len(jobs) == 0 {
			return tools.Text("No reminders."), nil
		}
		var sb strings.Builder
		for _, j := range jobs {
			fmt.Fprintf(&sb, "%s %q: %s; %s\n", j.ID, j.Title(), j.Description, c.when(j))
		}
		return tools.Text(sb.String()), nil
	case "remove":
		id := strings.TrimSpace(a.ID)
		if id == "" {
			return tools.Errorf("remove needs id (cron action list shows them)"), nil
		}
		if err := c.jobs.RemoveJob(id); err != nil {
			return tools.Result{}, err
		}
		return tools.Text("Removed reminder " + id + "."), nil
	case "add":
		spec, err := c.spec(a)
		if err != nil {
			return tools.Errorf("%v", err), nil
		}
		if info, ok := tools.CallFrom(ctx); ok && info.Channel == NotifyTelegram {
			// Made from the phone: it notifies there.
			spec.NotifyIn, spec.NotifyChat = NotifyTelegram, info.SessionID
		}
		j, err := c.jobs.AddJob(spec)
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Text(fmt.Sprintf("Added reminder %s %q: %s; %s. Tell the user this exact time.", j.ID, j.Title(), j.Description, c.when(j))), nil
	}
	return tools.Errorf("action must be add, list or remove"), nil
}

func (c *cronTool) spec(a cronArgs) (JobSpec, error) {
	spec := JobSpec{Name: a.Name, Message: strings.TrimSpace(a.Message)}
	if spec.Message == "" {
		return spec, errors.New("add needs message: what to do or say when it is due")
	}
	set := 0
	for _, given := range []bool{a.At != "", a.EverySeconds != 0, a.CronExpr != ""} {
		if given {
			set++
		}
	}
	if set != 1 {
		return spec, errors.New("add needs exactly one of at, every_seconds, cron_expr")
	}
	loc := c.loc
	tz := strings.TrimSpace(a.TZ)
	if tz != "" {
		l, err := time.LoadLocation(tz)
		if err != nil {
			return spec, fmt.Errorf("unknown time zone %q: use an IANA name like Europe/Berlin", tz)
		}
		loc = l
	}
	switch {
	case a.At != "":
		at, err := ParseAt(a.At, c.now(), loc)
		if err != nil {
			return spec, err
		}
		spec.Schedule = Schedule{Kind: KindAt, At: at.In(loc)}
	case a.EverySeconds != 0:
		spec.Schedule = Schedule{Kind: KindEvery, EverySeconds: a.EverySeconds}
	default:
		if tz == "" && c.loc != time.Local {
			tz = c.loc.String()
		}
		spec.Schedule = Schedule{Kind: KindCron, Expr: strings.TrimSpace(a.CronExpr), TZ: tz}
	}
	return spec, nil
}

func (c *cronTool) when(j Job) string {
	switch {
	case j.Paused:
		return "paused"
	case j.NextRun.IsZero():
		return "not scheduled (last: " + j.LastStatus + ")"
	}
	next := j.NextRun.In(c.loc)
	if j.Schedule.TZ != "" {
		if l, err := time.LoadLocation(j.Schedule.TZ); err == nil {
			next = j.NextRun.In(l)
		}
	}
	return "next " + next.Format("Mon 2 Jan 2006 15:04 MST") + " (" + Until(j.NextRun, c.now()) + ")"
}

// messageTool lets a background run reach the user (docs/design/background.md).
type messageTool struct{ post PostFunc }

type messageArgs struct {
	Content string `json:"content"`
}

func (m *messageTool) run(ctx context.Context, a messageArgs) (tools.Result, error) {
	content := strings.TrimSpace(a.Content)
	if content == "" {
		return tools.Errorf("content is empty"), nil
	}
	if m.post == nil {
		return tools.Errorf("messages cannot be delivered here"), nil
	}
	info, _ := tools.CallFrom(ctx)
	err := m.post(ctx, Post{SessionID: info.SessionID, RunID: info.RunID, Content: content,
		Unattended: info.Unattended, Channel: info.Channel})
	if err != nil {
		return tools.Result{}, fmt.Errorf("deliver message: %w", err)
	}
	return tools.Text("Delivered to the user."), nil
}

package schedule

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Add stores a new job and returns it with its first run time. now is the
// clock reading: a one-shot time must lie after it.
func (s *Store) Add(spec JobSpec, now time.Time) (Job, error) {
	spec.Name = strings.TrimSpace(spec.Name)
	if err := spec.Validate(); err != nil {
		return Job{}, fmt.Errorf("add reminder: %w", err)
	}
	if err := checkSize(spec); err != nil {
		return Job{}, err
	}
	if spec.Schedule.Kind == KindAt && !spec.Schedule.At.After(now) {
		return Job{}, fmt.Errorf("add reminder: %s is already past (hint: give a future time; now is %s)",
			spec.Schedule.At.Format(time.RFC3339), now.Format(time.RFC3339))
	}
	j := Job{ID: NewJobID(), JobSpec: spec, Created: now}
	next, err := spec.Schedule.Next(now, time.Time{})
	if err != nil {
		return Job{}, fmt.Errorf("add reminder: %w", err)
	}
	j.NextRun = next
	err = s.Update(func(jobs []Job) ([]Job, error) {
		if err := checkCount(len(jobs)); err != nil {
			return nil, err
		}
		for slices.ContainsFunc(jobs, func(x Job) bool { return x.ID == j.ID }) {
			j.ID = NewJobID()
		}
		return append(jobs, j), nil
	})
	if err != nil {
		return Job{}, err
	}
	j.Description = j.Schedule.Describe()
	return j, nil
}

// Edit replaces job id's name, message, schedule, chat and allowed tools, and
// computes its next run from now. A done or failed one-shot given a new future time
// is scheduled again; a paused job stays paused. Its history stays.
func (s *Store) Edit(id string, spec JobSpec, now time.Time) (Job, error) {
	spec.Name = strings.TrimSpace(spec.Name)
	if err := spec.Validate(); err != nil {
		return Job{}, fmt.Errorf("edit reminder: %w", err)
	}
	if err := checkSize(spec); err != nil {
		return Job{}, err
	}
	var out Job
	err := s.Update(func(jobs []Job) ([]Job, error) {
		i := slices.IndexFunc(jobs, func(j Job) bool { return j.ID == id })
		if i < 0 {
			return nil, notFound(id)
		}
		j := &jobs[i]
		if spec.Schedule.Kind == KindAt && !spec.Schedule.At.After(now) && (spec.Schedule != j.Schedule || j.Done) {
			return nil, fmt.Errorf("edit reminder: %s is already past (hint: give a future time; now is %s)",
				spec.Schedule.At.Format(time.RFC3339), now.Format(time.RFC3339))
		}
		changed := spec.Schedule != j.Schedule || j.Done
		j.JobSpec = spec
		if changed {
			next, err := spec.Schedule.Next(now, time.Time{})
			if err != nil {
				return nil, fmt.Errorf("edit reminder: %w", err)
			}
			j.NextRun, j.Done = next, false
		}
		out = *j
		return jobs, nil
	})
	if err != nil {
		return Job{}, err
	}
	out.Description = out.Schedule.Describe()
	return out, nil
}

// Remove deletes job id.
func (s *Store) Remove(id string) error {
	return s.Update(func(jobs []Job) ([]Job, error) {
		i := slices.IndexFunc(jobs, func(j Job) bool { return j.ID == id })
		if i < 0 {
			return nil, notFound(id)
		}
		return slices.Delete(jobs, i, i+1), nil
	})
}

// SetPaused pauses or resumes job id. A resumed job is due next from now
// (runs it missed while paused are not made up).
func (s *Store) SetPaused(id string, paused bool, now time.Time) error {
	return s.Update(func(jobs []Job) ([]Job, error) {
		i := slices.IndexFunc(jobs, func(j Job) bool { return j.ID == id })
		if i < 0 {
			return nil, notFound(id)
		}
		j := &jobs[i]
		if j.Paused == paused {
			return jobs, nil
		}
		j.Paused = paused
		if !paused && j.Schedule.Kind != KindAt {
			j.NextRun, _ = j.Schedule.Next(now, time.Time{})
		}
		return jobs, nil
	})
}

// Skip records that the person skipped a missed run of job id, due at due (Skip on its
// asking notice): its history gets a skipped run at now, like a run, and a one-shot is
// done (the Done list shows it, skipped).
func (s *Store) Skip(id string, now, due time.Time) error {
	return s.Update(func(jobs []Job) ([]Job, error) {
		i := slices.IndexFunc(jobs, func(j Job) bool { return j.ID == id })
		if i < 0 {
			return nil, notFound(id)
		}
		j := &jobs[i]
		j.record(RunRecord{At: now, Status: StatusSkipped, Due: due})
		if j.Schedule.Kind == KindAt {
			j.NextRun, j.Done = time.Time{}, true
			return pruneDone(jobs), nil
		}
		return jobs, nil
	})
}

// Get returns job id.
func (s *Store) Get(id string) (Job, error) {
	jobs, _, err := s.Load()
	if err != nil {
		return Job{}, err
	}
	i := slices.IndexFunc(jobs, func(j Job) bool { return j.ID == id })
	if i < 0 {
		return Job{}, notFound(id)
	}
	return jobs[i], nil
}

func notFound(id string) error {
	return fmt.Errorf("reminder %q not found (hint: `hearth cron list` shows the ids)", id)
}

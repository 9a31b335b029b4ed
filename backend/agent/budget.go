package agent

import (
	"fmt"
	"strconv"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// The limits that end a turn with a summary (docs/design/agent-loop.md#budgets), as
// Result.Limit and run_finished's limit name them: the window and the terminal offer a
// Continue after either.
const (
	LimitToolRounds = "toolRounds"
	LimitTime       = "time"
)

// DefaultTurnTime is the wall-clock budget of one turn: on a CPU a tool round of a small
// model takes half a minute or more, so ten minutes is a long task's worth of rounds,
// and a wandering model is stopped before the person has given up on it.
const DefaultTurnTime = 10 * time.Minute

// ContinueText is what Continue sends after a turn a budget ended: a new turn, with
// budgets of its own, that goes on from the summary.
const ContinueText = "Continue where you left off."

// nearShare is the share of a budget used at which the run says the limit nears (4/5).
const nearNum, nearDen = 4, 5

// spent says which budget is used up at a safe point after rounds tool rounds, if any.
// Both are checked only there (before a model request): a reply or a tool under way is
// let finish, so nothing the person saw is cut off, and the summary has what it did.
func (l *loop) spent(rounds int) string {
	switch {
	case rounds >= l.t.MaxToolIterations:
		return LimitToolRounds
	case l.elapsed() >= l.t.TurnTime:
		return LimitTime
	}
	return ""
}

// elapsed is the turn's own time: what it waited for the person to answer an approval
// is not counted, or a card left open over lunch would end the turn when answered.
func (l *loop) elapsed() time.Duration {
	return l.r.opts.Now().Sub(l.started) - time.Duration(l.waited.Load())
}

// nearing tells once per budget, on the run's stream, that four fifths of it are used.
// A steer adds no round and resets neither: it is the person's words in the same turn.
func (l *loop) nearing(rounds int) {
	maxR := l.t.MaxToolIterations
	if rounds*nearDen >= maxR*nearNum && !l.noticed["near:"+LimitToolRounds] {
		l.noticed["near:"+LimitToolRounds] = true
		l.em.say(event.LevelInfo, i18n.M("notice.budgetNear.rounds", "used", strconv.Itoa(rounds), "max", strconv.Itoa(maxR)))
	}
	if e := l.elapsed(); e*nearDen >= l.t.TurnTime*nearNum && !l.noticed["near:"+LimitTime] {
		l.noticed["near:"+LimitTime] = true
		l.em.say(event.LevelInfo, i18n.M("notice.budgetNear.time", "used", minutes(e), "max", minutes(l.t.TurnTime)))
	}
}

// minutes words a duration in whole minutes (at least 1).
func minutes(d time.Duration) string {
	return strconv.Itoa(max(1, int(d.Round(time.Minute)/time.Minute)))
}

// limitWords are the parts of the ending that differ by budget: the notice, the
// instruction of the summary call and the answer when that call fails.
func (l *loop) limitWords(limit string) (notice i18n.Message, instruction, reached string) {
	if limit == LimitTime {
		m := minutes(l.t.TurnTime)
		return i18n.M("notice.turnTime", "minutes", m),
			fmt.Sprintf("[Time limit reached] This request has used all %s minutes allowed for it. ", m) + summariseAsk,
			fmt.Sprintf("I reached the time limit of %s minutes for one request before finishing", m)
	}
	n := strconv.Itoa(l.t.MaxToolIterations)
	return i18n.M("notice.toolRounds", "n", n),
		fmt.Sprintf("[Tool limit reached] You have used all %s tool rounds allowed for this request. ", n) + summariseAsk,
		fmt.Sprintf("I reached the limit of %s tool rounds before finishing", n)
}

const summariseAsk = "Do not call any tools. Reply to the user now: summarise what you did, what you found, and what is left to do."

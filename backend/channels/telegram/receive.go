package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hearth/backend/channels"
	"hearth/backend/egress"
	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/nofollow"
)

// offsetFile keeps the next update_id to ask for, in StateDir.
const offsetFile = "telegram-offset.json"

type offsetState struct {
	Offset int64 `json:"offset"` // last handled update_id + 1
}

// loadOffset reads the kept offset (0 when none yet). A symlink or anything
// but a small regular file is refused, never followed.
func (a *Adapter) loadOffset() (int64, error) {
	if a.stateDir == "" {
		return 0, errors.New("telegram: no folder to keep the update offset in (StateDir)")
	}
	data, err := nofollow.ReadFile(a.stateDir, offsetFile, 4096)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("telegram: reading the update offset: %w (hint: remove %s; Telegram then resends what it still holds)", err, filepath.Join(a.stateDir, offsetFile))
	}
	var st offsetState
	if err := json.Unmarshal(data, &st); err != nil || st.Offset < 0 {
		return 0, fmt.Errorf("telegram: the update offset in %s is damaged (hint: remove the file; Telegram then resends what it still holds)", filepath.Join(a.stateDir, offsetFile))
	}
	return st.Offset, nil
}

// saveOffset replaces the offset file whole: a crash leaves the old or the new
// one, never a torn one. The rename replaces a symlink planted meanwhile
// rather than writing through it.
func (a *Adapter) saveOffset(off int64) error {
	if err := os.MkdirAll(a.stateDir, 0o700); err != nil {
		return err
	}
	root, err := os.OpenRoot(a.stateDir)
	if err != nil {
		return err
	}
	defer root.Close()
	data, _ := json.Marshal(offsetState{Offset: off})
	return atomicfile.WriteIn(root, offsetFile, append(data, '\n'), 0o600)
}

// Receive polls getUpdates until ctx ends and hands each update to handle,
// one at a time, in order. The offset moves past an update only after handle
// returns, and is kept on disk then: an update handled is never handed again,
// even after a restart; one whose handling was cut short (the process killed)
// comes again after the restart — at least once for those, exactly once for
// the rest. Network failures are retried with a jittered backoff; a refused
// token (channels.ErrUnauthorized) or another poller (ErrConflict) ends it.
func (a *Adapter) Receive(ctx context.Context, handle func(context.Context, channels.Inbound)) error {
	if !a.receiving.CompareAndSwap(false, true) {
		return errors.New("telegram: this adapter is already receiving (one Receive at a time)")
	}
	defer a.receiving.Store(false)
	offset, err := a.loadOffset()
	if err != nil {
		return err
	}
	var bot Bot
	for fails := 0; ; fails++ {
		if bot, err = a.Me(ctx); err == nil {
			break
		}
		if err := a.stopOrWait(ctx, err, fails); err != nil {
			return err
		}
	}
	limit, fails := 100, 0
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ups, err := a.getUpdates(ctx, offset, limit)
		if err != nil {
			if errors.Is(err, errTooLarge) {
				limit = 1 // one update at a time gets past an oversized batch
			}
			if err := a.stopOrWait(ctx, err, fails); err != nil {
				return err
			}
			fails++
			continue
		}
		fails, limit = 0, 100
		for _, u := range ups {
			if u.UpdateID < offset {
				continue // already handled: Telegram resent it
			}
			if in, ok := a.inbound(ctx, bot, u); ok {
				handle(ctx, in)
			}
			offset = u.UpdateID + 1
			if err := a.saveOffset(offset); err != nil {
				return fmt.Errorf("telegram: keeping the update offset: %w (hint: check that %s is writable)", err, a.stateDir)
			}
		}
	}
}

// stopOrWait returns the error that ends Receive, or waits before the next
// try: retry_after on 429, else an exponential backoff with jitter.
func (a *Adapter) stopOrWait(ctx context.Context, err error, fails int) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, channels.ErrUnauthorized) || errors.Is(err, ErrConflict) || errors.Is(err, egress.ErrLocalOnly) {
		return err
	}
	var wait time.Duration
	var ae *APIError
	if errors.As(err, &ae) && ae.Code == http.StatusTooManyRequests && ae.RetryAfter > 0 {
		wait = ae.RetryAfter
	} else {
		wait = backoff(fails, a.jitter())
	}
	a.log.Warn("telegram: polling failed, retrying", "err", err, "wait", wait)
	return a.sleep(ctx, wait)
}

// backoff is 1 s doubled per failure up to maxBackoff, less up to a fifth at
// random so that many clients do not retry in step.
func backoff(fails int, jitter float64) time.Duration {
	d := time.Second
	for i := 0; i < fails && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	return d - time.Duration(float64(d)/5*jitter)
}

func (a *Adapter) getUpdates(ctx context.Context, offset int64, limit int) ([]Update, error) {
	params := map[string]any{"timeout": pollTimeout, "limit": limit,
		"allowed_updates": []string{"message", "callback_query"}}
	if offset > 0 {
		params["offset"] = offset
	}
	cctx, cancel := context.WithTimeout(ctx, pollDeadline)
	defer cancel()
	var ups []Update
	if err := a.call(cctx, "getUpdates", params, &ups, maxUpdatesBody); err != nil {
		return nil, lasting(err)
	}
	return ups, nil
}

// chatID turns the seam's string into the Bot API's integer chat id.
func chatID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("telegram: %q is not a chat id", s)
	}
	return id, nil
}

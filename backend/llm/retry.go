package llm

import (
	"context"
	"fmt"
	"time"
)

// RetryPolicy bounds the retries of transient provider errors (connection
// refused while Ollama starts, 429, 5xx). The zero value is a sensible default.
type RetryPolicy struct {
	// MaxAttempts counts the first try; 0 means 4, 1 disables retries.
	MaxAttempts int
	// BaseDelay is the first backoff; it doubles each retry. 0 means 500 ms.
	BaseDelay time.Duration
	// MaxDelay caps one backoff. 0 means 8 s.
	MaxDelay time.Duration
	// Sleep waits d or until ctx is done; tests inject a fake. Nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (p RetryPolicy) attempts() int {
	if p.MaxAttempts <= 0 {
		return 4
	}
	return p.MaxAttempts
}

// Delay is the backoff before retry number n (1 for the first retry).
func (p RetryPolicy) Delay(n int) time.Duration {
	base, maxD := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = 500 * time.Millisecond
	}
	if maxD <= 0 {
		maxD = 8 * time.Second
	}
	d := base
	for i := 1; i < n && d < maxD; i++ {
		d *= 2
	}
	return min(d, maxD)
}

func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryClass says how the chat driver may retry an attempt's error.
type retryClass int

const (
	retryNever     retryClass = iota
	retryTransient            // backoff and try again, up to MaxAttempts
	retryModel                // a model failure: try exactly once more
)

// retryable is the error an attempt returns: the final *Error plus its class.
type retryable struct {
	err   *Error
	class retryClass
}

func (r *retryable) Error() string { return r.err.Error() }
func (r *retryable) Unwrap() error { return r.err }

func transient(e *Error) error { return &retryable{err: e, class: retryTransient} }
func modelFailure(e *Error) error {
	e.modelFault = true
	return &retryable{err: e, class: retryModel}
}

// retryCall is withRetry for a call that shows the user nothing while it runs.
func retryCall(ctx context.Context, p RetryPolicy, op func(ctx context.Context) error) error {
	return withRetry(ctx, p, func(ctx context.Context) (bool, error) { return false, op(ctx) })
}

// withRetry runs op until it succeeds, fails for good, or the policy is
// exhausted. op reports whether it delivered anything to the user: such an
// attempt is never repeated (the user would see the text twice).
func withRetry(ctx context.Context, p RetryPolicy, op func(ctx context.Context) (streamed bool, err error)) error {
	modelRetried := false
	for n := 1; ; n++ {
		streamed, err := op(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("request canceled: %w", ctx.Err())
		}
		r, ok := err.(*retryable)
		if !ok {
			return err
		}
		switch {
		case streamed:
		case r.class == retryTransient && n < p.attempts():
			if serr := p.sleep(ctx, p.Delay(n)); serr != nil {
				return fmt.Errorf("request canceled while waiting to retry: %w", serr)
			}
			continue
		case r.class == retryModel && !modelRetried:
			modelRetried = true
			continue
		}
		return r.err
	}
}

package elicit

import "context"

type completionKey struct{}

// WithCompletion marks ctx for a URL elicitation that a refused request
// waits on (-32042): done closes when the server says the browser step is
// finished (notifications/elicitation/complete), and the request is sent
// again after it. The host then waits, after opening the browser, for done
// or for the person to say they are finished.
func WithCompletion(ctx context.Context, done <-chan struct{}) context.Context {
	return context.WithValue(ctx, completionKey{}, done)
}

// CompletionOf is the channel WithCompletion put in ctx, or nil when
// nothing waits on the elicitation (the server asked with
// elicitation/create, and only wants the person's consent).
func CompletionOf(ctx context.Context) <-chan struct{} {
	done, _ := ctx.Value(completionKey{}).(<-chan struct{})
	return done
}

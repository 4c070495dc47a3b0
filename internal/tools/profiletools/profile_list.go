package profiletools

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

func profileList(ctx context.Context, s *vault.Store, call tools.Call, _ tools.NoArgs) (string, error) {
	ps, err := s.Profiles(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d profiles:\n", len(ps))
	for _, p := range ps {
		mode, err := storedApproval(ctx, s, p.Name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s\tapproval %s", p.Name, mode)
		if p.Current {
			b.WriteString("\tcurrent")
		}
		if p.Name == call.Env.Profile {
			b.WriteString("\tthis conversation")
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

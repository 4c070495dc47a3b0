package vaulttools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"tai/internal/tools"
	"tai/internal/vault"
)

func secretList(ctx context.Context, s *vault.Store, call tools.Call, _ tools.NoArgs) (string, error) {
	list, err := s.Secrets(ctx, call.Env.Profile)
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return fmt.Sprintf("no secrets in profile %s", call.Env.Profile), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d secrets in profile %s (values are never shown):\n", len(list), call.Env.Profile)
	for _, si := range list {
		state := "plain"
		if si.Sealed {
			state = "sealed"
		}
		fmt.Fprintf(&b, "%s\tset %s\t%s", si.Name, when(si.Updated), state)
		if len(si.Meta) > 0 {
			keys := make([]string, 0, len(si.Meta))
			for k := range si.Meta {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, "\t%s=%s", k, si.Meta[k])
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

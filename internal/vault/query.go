package vault

import (
	"context"
	"database/sql"
	"strings"
)

// queryRows runs query and returns what scan reads from each row, in
// order. An error of the query is classified; one of a row is returned
// as it is.
func queryRows[T any](ctx context.Context, q querier, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// queryMap is queryRows into a map: scan reads each row's key and value.
func queryMap[K comparable, V any](ctx context.Context, q querier, scan func(*sql.Rows) (K, V, error), query string, args ...any) (map[K]V, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	defer rows.Close()
	out := map[K]V{}
	for rows.Next() {
		k, v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// conditions gathers the terms of a WHERE clause and their arguments.
type conditions struct {
	terms []string
	args  []any
}

// add adds term, which holds one placeholder, for arg.
func (c *conditions) add(term string, arg any) {
	c.terms = append(c.terms, term)
	c.args = append(c.args, arg)
}

// where is the WHERE clause of the terms, "" when there are none.
func (c *conditions) where() string {
	if len(c.terms) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(c.terms, " AND ")
}

// ofServers is the WHERE clause that keeps the rows of the given servers,
// and its arguments; none when no server is named.
func ofServers(servers []string) (string, []any) {
	if len(servers) == 0 {
		return "", nil
	}
	args := make([]any, len(servers))
	for i, s := range servers {
		args[i] = s
	}
	return ` WHERE server IN (?` + strings.Repeat(", ?", len(servers)-1) + `)`, args
}

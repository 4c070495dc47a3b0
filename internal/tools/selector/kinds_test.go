package selector

import (
	"testing"

	"tai/internal/tools"
)

func TestKindsOf(t *testing.T) {
	for in, want := range map[string]string{
		"text +15551234567 that it shipped":           "phone",
		"call 555-123-4567":                           "phone",
		"order 15551234567 and 3.5 and 2024-01-02":    "",
		"let dana@acme.io know":                       "email",
		"save https://example.com/a.png for later":    "url",
		"what tabs are in q3-forecast.xlsx?":          "spreadsheet excel",
		"take banner.png and notes.pdf":               "image pdf document",
		"read main.go and src/app.ts, then README.md": "",
		"ping @dana about it":                         "",
	} {
		if got := kindsOf(in); got != want {
			t.Errorf("kindsOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// A phone number or an email address, with no word for what to do with
// it, is enough to rank the tool for its kind first, in either order of
// the catalogue (ties keep index order).
func TestRank_PayloadKindCounts(t *testing.T) {
	sms := &tools.Tool{Name: "send_sms", Description: "Send an SMS to a phone number"}
	mail := &tools.Tool{Name: "send_mail", Description: "Send an email to an address"}
	for _, cat := range [][]*tools.Tool{{sms, mail}, {mail, sms}} {
		ix := NewIndex(cat)
		for in, want := range map[string]string{"send +15551234567 hi": "send_sms", "send bob@example.org hi": "send_mail"} {
			if hits := ix.Rank(Query{Input: in}); len(hits) == 0 || hits[0].Tool.Name != want {
				t.Errorf("%q ranked %v first, want %s", in, hits, want)
			}
		}
	}
}

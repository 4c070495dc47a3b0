package selector

import (
	"testing"

	"tai/internal/tools"
)

// Each kind of payload is named where its form leaves no doubt, and
// ordinary words, plain numbers, source files and look-alikes name none;
// the forms of the retired kinds (dates, amounts, times, hashes, issue
// keys, …) name none either (docs/benchmarks.md, "Tool selection").
func TestKindsOf(t *testing.T) {
	for in, want := range map[string]string{
		// phones, mail, links and files
		"text +15551234567 that it shipped":           "phone",
		"call 555-123-4567":                           "phone",
		"order 15551234567 and 3.5 and 2024-01-02":    "",
		"from 02/01/2024 to 31.12.2025":               "",
		"let dana@acme.io know":                       "email",
		"save https://example.com/a.png for later":    "url",
		"what tabs are in q3-forecast.xlsx?":          "spreadsheet excel",
		"take banner.png and notes.pdf":               "image pdf document",
		"read main.go and src/app.ts, then README.md": "",
		"ping @dana about it":                         "",
		// addresses and ranges
		"can 192.168.1.20 reach the printer": "ip network",
		"who owns 2001:db8::8a2e:370:7334":   "ip network",
		"does 172.16.0.0/12 cover it":        "ip network subnet cidr",
		// storage, transfer, databases, git
		"copy s3://logs/app.log to az://backup/x":            "storage bucket object s3 aws storage blob container azure",
		"connect to postgres://db.local:5432/shop":           "database postgres sql",
		"clone git@github.com:acme/site.git over sftp://h/x": "git repository sftp file transfer",
		// versions and flights
		"does 1.4.2 satisfy ^1.3.0 or >=2.0.0":      "version version version",
		"upgrade react@18.2.0, v2 and 1.4.0-beta.1": "version version version",
		"version 1.2.3.4.5 and 300.1.1.1":           "",
		"via vim v":                                 "",
		"is LH400 or UA9 or U2123 late":             "flight",
		"ES2015 in IE11, FY2024, RS232 and PG13":    "",
		// domains
		"is acme.io or shop.example.co.uk free": "domain website domain website",
		"open next.js, notes.md and Safari.app": "",
		// retired kinds name nothing
		"what's WEB-112 about, and is VINYL-0042 in stock?":              "",
		"where is 1Z999AA10123456784":                                    "",
		"bump org.springframework.boot:spring-boot-starter-web:3.2.0":    "",
		"what's in 0x71C7656EC7ab88b098defB751B7401B5f6d8976F":           "",
		"how did signups move over the last 6 weeks":                     "",
		"212 fahrenheit to kelvin, €40 in dollars, 27 percent":           "",
		"call at 9am PST, run it */15 * * * *":                           "",
		"revert 3f9a2c1 and record 123e4567-e89b-12d3-a456-426614174000": "",
		"make it #1e90ff, at 48.8566, 2.3522, isbn 978-0-306-40615-7":    "",
		"(17+4)*3 please, 1200 divided by 7":                             "",
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
	checkRankedFirst(t, []*tools.Tool{sms, mail}, map[string]string{"send +15551234567 hi": "send_sms", "send bob@example.org hi": "send_mail"})
}

// The kinds beyond addresses: a range, a sum, a temperature, a clock time
// in a city, a storage URI and a flight number each rank the tool for
// their kind first, though the request's own words name none of them.
func TestRank_MoreKindsCount(t *testing.T) {
	cat := []*tools.Tool{
		{Name: "ip_info", Description: "Check whether an IP address is in a CIDR network range"},
		{Name: "read_object", Description: "Read an object from a storage bucket"},
		{Name: "flight_position", Description: "Live position of a flight"},
		{Name: "notes", Description: "Keep notes and look them up"},
	}
	checkRankedFirst(t, cat, map[string]string{
		"and 192.168.4.9 vs 192.168.0.0/16?": "ip_info",
		"cat s3://acme-logs/today.txt":       "read_object",
		"has LH400 landed yet":               "flight_position",
	})
}

// checkRankedFirst fails t for each request (a key of want) that does not
// rank the tool want names first, over cat in its order and reversed.
func checkRankedFirst(t *testing.T, cat []*tools.Tool, want map[string]string) {
	t.Helper()
	for _, order := range [][]*tools.Tool{cat, reversed(cat)} {
		ix := NewIndex(order)
		for in, name := range want {
			if hits := ix.Rank(Query{Input: in}); len(hits) == 0 || hits[0].Tool.Name != name {
				t.Errorf("%q ranked %v first, want %s", in, hits, name)
			}
		}
	}
}

func reversed(ts []*tools.Tool) []*tools.Tool {
	out := make([]*tools.Tool, len(ts))
	for i, t := range ts {
		out[len(ts)-1-i] = t
	}
	return out
}

// BenchmarkKindsOf times naming the kinds of a request's payload, which
// every selection does once.
func BenchmarkKindsOf(b *testing.B) {
	in := []string{
		"show me what changed in the last commit",
		"which street address is at 40.7128, -74.0060",
		"commit these changes with the message 'fix typo in readme'",
		"put these five leads into hubspot: ana (ana@x.io), ben (ben@y.io)",
		"if it's 3pm in Tokyo what is that in UTC, and 18.5% of 2340",
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		kindsOf(in[i%len(in)])
	}
}

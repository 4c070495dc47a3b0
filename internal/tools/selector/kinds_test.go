package selector

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zoneNames must be the IANA database's names on any machine

	"tai/internal/tools"
)

// Each kind of payload is named where its form leaves no doubt, and
// ordinary words, plain numbers, source files and look-alikes name none.
func TestKindsOf(t *testing.T) {
	for in, want := range map[string]string{
		// phones, mail, links and files
		"text +15551234567 that it shipped":           "phone",
		"call 555-123-4567":                           "phone",
		"order 15551234567 and 3.5 and 2024-01-02":    "date",
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
		// spans of time counted back from now
		"how did signups move over the last 6 weeks":             "history trend",
		"in the past two years, and the previous couple of days": "history trend history trend",
		"last month, the last 1 day, the last 3 items":           "",
		"meet at half past 5 pm":                                 "time",
		// chains and packages
		"what's in 0x71C7656EC7ab88b098defB751B7401B5f6d8976F":                              "blockchain wallet address",
		"did 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 go through": "blockchain transaction hash",
		"0xdeadbeef and 0x71C7656EC7ab88b098defB751B7401B5f6d8976":                          "",
		"bump org.springframework.boot:spring-boot-starter-web:3.2.0":                       "maven artifact dependency",
		"is io.ktor:ktor-server-core on 2.3":                                                "maven artifact dependency",
		"reach db.example.com:5432, com.example.db:5432 or run myapp.cli:main":              "",
		"meet at 10:30 and bring 1.2.3 notes, 1.5 kg":                                       "time version weight unit measurement",
		"version 1.2.3.4.5 and 300.1.1.1":                                                   "",
		// arithmetic and percentages
		"(17+4)*3 please":                            "math calculate expression",
		"what is 1200 divided by 7":                  "math calculate arithmetic divide division",
		"and 1200 times 3":                           "math calculate arithmetic multiply multiplication",
		"add 3 and 4, the sum of 1,200 and 5":        "math calculate arithmetic sum add addition math calculate arithmetic sum add addition",
		"subtract 5 from 9 or 9 minus 5":             "math calculate arithmetic subtract subtraction math calculate arithmetic subtract subtraction",
		"multiply 6 by 7, 2 raised to 10":            "math calculate arithmetic multiply multiplication math calculate arithmetic power exponent",
		"add 3 people to the invite":                 "",
		"10 less than 20, 3 over 2 days, 3 x 8 reps": "",
		"27 percent, 12% of 80":                      "math calculate percentage",
		"a 15% tip":                                  "percentage",
		"pages 3-4, 12/4 and 3x8 sets":               "",
		"3 - 5 people":                               "",
		// quantities, units and money
		"212 fahrenheit to kelvin":   "temperature unit measurement convert conversion",
		"is 20°c warm":               "temperature unit measurement",
		"run 5 miles, then 10km":     "distance unit measurement distance unit measurement",
		"€40 in dollars":             "money amount currency convert conversion",
		"it costs $1,200 or 99 usd":  "money amount currency money amount currency",
		"5 in the morning, 3 m, 2 g": "",
		// times and zones
		"call at 9am PST":                       "time timezone",
		"is 7 pm in Asia/Tokyo too late":        "time timezone",
		"noon in los angeles is what at 6:15pm": "time",
		"at 4pm in the lobby":                   "time",
		"the Europe/Lisbon zone":                "time timezone",
		"spam me at 25:00, 13pm, 9:7 or 30 pm":  "",
		// dates
		"from 02/01/2024 to 2024-03-31 or 31.12.2025": "date date date",
		"1/2 cup, 3/4 done, 2024-13-45":               "",
		"from 12 to 16 may, or march 3rd":             "date date",
		"you may 2x it, 40 march, a 3 month plan":     "",
		// storage, transfer, databases, git
		"copy s3://logs/app.log to az://backup/x":            "storage bucket object s3 aws storage blob container azure",
		"connect to postgres://db.local:5432/shop":           "database postgres sql",
		"clone git@github.com:acme/site.git over sftp://h/x": "git repository sftp file transfer",
		// flights and tracking
		"is LH400 or UA9 or U2123 late":          "flight",
		"ES2015 in IE11, FY2024, RS232 and PG13": "",
		"where is 1Z999AA10123456784":            "tracking shipment package",
		// issue keys
		"what's WEB-112 about, and PROJ-7?":                             "issue ticket key issue ticket key",
		"SHA-256, UTF-8, COVID-19, GPT-4, ISO-8601, PEP-8 and RFC-2616": "",
		"web-112, W-12, PROJ-1234567 and ABC-12-3":                      "",
		// hashes, ids, versions
		"revert 3f9a2c1 and 9fceb02d0ae598e95dc970b74767f19372d61af8": "commit commit sha hash",
		"job 7f3c2a91 is stuck":                       "id",
		"arxiv 2106.09685 and 3.14159":                "",
		"does 1.4.2 satisfy ^1.3.0 or >=2.0.0":        "version version version",
		"pull sha256:" + strings.Repeat("ab12", 16):   "hash sha digest",
		"deadbeef, facade, 1234567 and ABCdef12":      "",
		"record 123e4567-e89b-12d3-a456-426614174000": "uuid id",
		"upgrade react@18.2.0, v2 and 1.4.0-beta.1":   "version version version",
		"via vim v": "",
		// colours, coordinates, schedules, books, domains
		"make it #1e90ff or #fff":                     "color color",
		"see #123, #decade and #cafe01z":              "",
		"at 48.8566, 2.3522":                          "coordinates latitude longitude location",
		"paid 12.50, 13.75 and 100.000, 200.000":      "",
		"run it */15 * * * * and 0 9 * * 1-5 daily":   "cron schedule",
		"3 * 4 * 5 and 1 2 3 4 5":                     "math calculate arithmetic multiply multiplication",
		"look up 978-0-306-40615-7 and 0-306-40615-2": "isbn book isbn book",
		"order 978-0-306-40615-8 and 5551234567":      "",
		"is acme.io or shop.example.co.uk free":       "domain website domain website",
		"open next.js, notes.md and Safari.app":       "",
	} {
		if got := kindsOf(in); got != want {
			t.Errorf("kindsOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// zoneNames are the IANA database's own names, so that the cities a
// clock time is asked "in" are the ones the database knows.
func TestZoneNames(t *testing.T) {
	for _, z := range zoneNames {
		if _, err := time.LoadLocation(z); err != nil {
			t.Errorf("%s: %v", z, err)
		}
		if !isZoneName(z) {
			t.Errorf("isZoneName(%q) = false", z)
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

// The kinds beyond addresses: a range, a sum, a temperature, a clock time
// in a city, a storage URI and a flight number each rank the tool for
// their kind first, though the request's own words name none of them.
func TestRank_MoreKindsCount(t *testing.T) {
	cat := []*tools.Tool{
		{Name: "ip_info", Description: "Check whether an IP address is in a CIDR network range"},
		{Name: "evaluate", Description: "Calculate the value of a math expression"},
		{Name: "convert", Description: "Convert between units of measure, such as temperature or distance"},
		{Name: "world_clock", Description: "Convert a time from one timezone to another"},
		{Name: "read_object", Description: "Read an object from a storage bucket"},
		{Name: "flight_position", Description: "Live position of a flight"},
		{Name: "notes", Description: "Keep notes and look them up"},
	}
	for in, want := range map[string]string{
		"and 192.168.4.9 vs 192.168.0.0/16?": "ip_info",
		"(1250*3)+17":                        "evaluate",
		"212 fahrenheit as kelvin please":    "convert",
		"7pm in tokyo, what's that for me":   "world_clock",
		"cat s3://acme-logs/today.txt":       "read_object",
		"has LH400 landed yet":               "flight_position",
	} {
		for _, order := range [][]*tools.Tool{cat, reversed(cat)} {
			if hits := NewIndex(order).Rank(Query{Input: in}); len(hits) == 0 || hits[0].Tool.Name != want {
				t.Errorf("%q ranked %v first, want %s", in, hits, want)
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

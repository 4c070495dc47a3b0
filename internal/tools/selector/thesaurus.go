package selector

import (
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"
)

//go:generate go run ../../../devtools/wordnetgen -out wordnet.txt testdata/servers testdata/unseen/servers

// related are groups of words that people and tool authors use for the
// same thing. A query word also matches the other words of its groups, at
// expansionWeight, so "remove the folder" finds delete_directory. The
// groups are general software and office vocabulary, not any one server's:
// a word belongs here only if it means much the same in every catalogue.
var related = []string{
	"folder directory dir",
	"delete remove erase rm destroy drop unlink trash forget",
	"search find lookup locate seek grep query",
	"get fetch retrieve download pull read load obtain",
	"show display view print see list look",
	"edit modify change update alter patch replace rewrite",
	"create make new add insert generate",
	"run execute exec launch start invoke trigger",
	"stop kill terminate cancel abort halt",
	"rename move mv relocate",
	"screenshot capture snapshot screen",
	"image picture photo photograph img illustration artwork",
	"web website site page url link browser internet online webpage",
	"database db sql table row record",
	"message chat post send dm notify",
	"email mail inbox",
	"repository repo",
	"issue ticket bug",
	"commit revision changeset",
	"history log recent previous last",
	"diff difference compare changed",
	"route direction navigate travel",
	"place location address geocode coordinate map",
	"note memo remember memory",
	"document doc docs documentation",
	"error failure problem exception",
	"test check verify validate",
	"container docker pod",
	"schedule calendar event meeting",
	"user person member people account",
	"team channel",
	"comment reply review",
	"fork clone copy duplicate",
	"summarize summary overview",
	"think reason reflect",
	"task todo",
	"key secret credential token password",
	"environment env",
	"process job",
	"write save store",
	"size length count",
	"finish complete resolve accomplish",
	"crash error exception failure fault",
	"close shut end",
	"cost price spend billing usage",
	"payment charge transaction",
	"dispute chargeback",
	"refund reimburse",
	"invoice bill receipt",
	"subscription recurring",
	"coupon discount promo promotion",
	"customer client contact lead prospect",
	"company organization org business",
	"deal opportunity",
	"workflow automation",
	"monitor watch track observe",
	"alert alarm notification",
	"translate translation translator",
	"sort rank rerank relevance",
	"status state progress health",
	"chart graph plot visualization diagram",
	"metric statistic stat analytic",
	"deploy release ship rollout publish",
	"helper subagent assistant worker delegate",
	"command terminal console bash",
	"upload attach attachment",
	"share permission access grant",
	"article news coverage story headline",
	"research investigate analyze study",
	"manual guide tutorial documentation",
	"draw paint sketch illustrate",
	"conversation thread discussion",
	"column field attribute property",
	"backup export dump",
	"favorite star bookmark",
	"label tag category",
	"deadline due overdue",
	"sprint cycle iteration milestone",
	"assign assignee owner",
	"priority urgent",
	"sms text",
	"phone call dial",
	"video clip recording",
	"transcript caption subtitle",
	"wiki knowledge",
	"vector embedding semantic",
}

// abbreviations stand for words tools spell out; a query word listed here
// counts as itself and as the words it abbreviates, all at full weight
// (a tool may use the abbreviation too: an argument named lon). Built on
// first use, not when tai starts.
var abbreviations = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"pr": "pull request", "prs": "pull request", "mr": "merge request", "repo": "repository",
		"repos": "repository", "db": "database", "k8s": "kubernetes", "js": "javascript",
		"ts": "typescript", "env": "environment", "config": "configuration", "msg": "message",
		"info": "information", "auth": "authentication", "ci": "ci pipeline build", "dm": "direct message",
		"url": "url link", "ui": "user interface", "img": "image", "pic": "picture", "pkg": "package",
		"lng": "longitude", "lon": "longitude", "coords": "coordinates", "addr": "address",
		"appt": "appointment", "mtg": "meeting", "acct": "account", "txn": "transaction", "qty": "quantity",
		"amt": "amount", "creds": "credentials", "perms": "permissions", "prefs": "preferences",
		"notif": "notification", "notifs": "notification", "convo": "conversation", "vid": "video",
		"vids": "video", "imgs": "image", "pics": "picture", "yt": "youtube",
	}
})

// What a related word counts for, against 1 for a word the query used
// itself: a word of the same group above (expansionWeight), a synonym or
// derived form in WordNet (synonymWeight), a broader or narrower word in
// WordNet (broaderWeight). A tool scores for a query word by the best of
// these, so an expansion never outweighs a direct match.
const (
	expansionWeight = 0.4
	synonymWeight   = 0.3
	broaderWeight   = 0.15
)

// relative is a stem that may stand in for a query word, and its weight.
type relative struct {
	stem   string
	weight float32
}

// wordnetTable is generated from WordNet 3.0 (see WORDNET-LICENSE and
// devtools/wordnetgen): one line per word, "word synonyms… | broader…",
// sorted by word in byte order, which wordnetEntries relies on.
//
//go:embed wordnet.txt
var wordnetTable string

// relativesOf returns the stems that may stand in for the stem key, the
// hand groups' first. The table is not read whole: key's WordNet entries
// are found by binary search in it (see wordnetEntries), so tai's first
// request pays for the words it uses, not for the table. Results with any
// relative are remembered; there are at most as many as the groups and
// the table have keys, whatever the queries. Safe for concurrent use.
func relativesOf(key string) []relative {
	if v, ok := knownRelatives.Load(key); ok {
		return v.([]relative)
	}
	var rs relatives
	for _, g := range handGroups()[key] {
		for _, w := range strings.Fields(related[g]) {
			rs.add(key, Stem(w), expansionWeight)
		}
	}
	wordnetEntries(key, func(synonyms, broader string) {
		for _, w := range strings.Fields(synonyms) {
			rs.add(key, Stem(w), synonymWeight)
		}
		for _, w := range strings.Fields(broader) {
			rs.add(key, Stem(w), broaderWeight)
		}
	})
	if len(rs) == 0 {
		return nil
	}
	v, _ := knownRelatives.LoadOrStore(key, []relative(rs))
	return v.([]relative)
}

// knownRelatives holds relativesOf's results that have a relative.
var knownRelatives sync.Map

// relatives is a list of relatives without repeats.
type relatives []relative

// add notes that to stands in for from at weight w; a relative noted
// twice keeps its best weight, and a word is no relative of itself.
func (rs *relatives) add(from, to string, w float32) {
	if from == to {
		return
	}
	for i, r := range *rs {
		if r.stem == to {
			(*rs)[i].weight = max(r.weight, w)
			return
		}
	}
	*rs = append(*rs, relative{to, w})
}

// handGroups maps each stem of the hand groups (related) to the indices
// of its groups; it is built on first use, not at start-up.
var handGroups = sync.OnceValue(func() map[string][]int {
	m := map[string][]int{}
	for i, g := range related {
		for _, w := range strings.Fields(g) {
			s := Stem(w)
			if !slices.Contains(m[s], i) {
				m[s] = append(m[s], i)
			}
		}
	}
	return m
})

// wordnetEntries calls fn with the synonyms and the broader words of each
// entry of the WordNet table whose word or phrase has the key key (its
// stems joined by underscores: see phraseKey).
//
// The table is sorted by word, and a word's stem is a beginning of the
// word, or for a plural or past in -ies or -ied, a beginning of at least
// two letters and a "y" (Stem). So every entry with the key key begins
// with key's first stem, less such a "y": those entries are one run of
// the table, found by binary search.
func wordnetEntries(key string, fn func(synonyms, broader string)) {
	prefix, _, _ := strings.Cut(key, "_")
	if len(prefix) >= 3 {
		prefix = strings.TrimSuffix(prefix, "y")
	}
	table := wordnetTable
	i := sort.Search(len(table), func(i int) bool {
		return headword(table[lineStart(table, i):]) >= prefix
	})
	for i = lineStart(table, i); i < len(table); {
		line := table[i:]
		if n := strings.IndexByte(line, '\n'); n >= 0 {
			line, i = line[:n], i+n+1
		} else {
			i = len(table)
		}
		if line == "" || line[0] == '#' {
			continue
		}
		if !strings.HasPrefix(line, prefix) {
			break
		}
		head := headword(line)
		if !hasKey(head, key) {
			continue
		}
		synonyms, broader, _ := strings.Cut(line[len(head):], " | ")
		fn(synonyms, broader)
	}
}

// lineStart is the offset of the line of text that holds offset i.
func lineStart(text string, i int) int {
	return strings.LastIndexByte(text[:i], '\n') + 1
}

// hasKey reports whether the word or phrase head of the table has the key
// key (its stems joined by underscores, see phraseKey), without building
// the head's key: the
// lookup of every two or three words in a row of a request walks many
// entries, and most do not match.
func hasKey(head, key string) bool {
	for {
		h, hrest, hmore := strings.Cut(head, "_")
		k, krest, kmore := strings.Cut(key, "_")
		if hmore != kmore || Stem(h) != k {
			return false
		}
		if !hmore {
			return true
		}
		head, key = hrest, krest
	}
}

// headword is the word or phrase an entry of the WordNet table is for:
// the first word of line, which may run on to the rest of the table.
func headword(line string) string {
	if i := strings.IndexAny(line, " \n"); i >= 0 {
		return line[:i]
	}
	return line
}

// phraseKey is the key of a word or of words in a row: their stems joined
// by underscores, so "getting rid of" finds WordNet's get_rid_of.
func phraseKey(words []string) string {
	if len(words) == 1 {
		return Stem(words[0])
	}
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = Stem(w)
	}
	return strings.Join(stems, "_")
}

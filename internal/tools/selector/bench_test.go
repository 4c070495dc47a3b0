package selector_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"tai/internal/llm"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/tools/selector"
)

// method is one way of choosing the tools offered for a request.
type method struct {
	name  string
	offer func(input string) []*tools.Tool
	// next, when set, is the method's offer at a later step of the same
	// turn, the latest tool traffic given (tai's; see stepsNext).
	next func(input, traffic string) []*tools.Tool
	// kept are the tools the bridge lists but keeps back (past their
	// server's MCP_MAX_TOOLS): no method may offer them.
	kept map[string]bool
	// native are the catalogue's native tools.
	native map[string]bool
}

// contenders are tai's selector over a catalogue and the BM25 baseline,
// which offers its top k for a k chosen per set of queries.
type contenders struct {
	tai  method
	base *bm25
	ev   method // the baseline's method, offer set by at
}

// benchWindow is the model's context window the benchmark sizes budgets
// for: TAI_BENCH_WINDOW tokens when set, else the selector's default
// (128,000), so that one run can show recall at another model's window.
var benchWindow, _ = strconv.Atoi(os.Getenv("TAI_BENCH_WINDOW"))

func newContenders(cat []*tools.Tool) *contenders { return newContendersAt(cat, benchWindow) }

// newContendersAt is newContenders for a model whose context window holds
// window tokens (0: the selector's default).
func newContendersAt(cat []*tools.Tool, window int) *contenders {
	ix := selector.NewIndex(cat)
	var offerable []*tools.Tool // the baseline too offers no tool the bridge keeps back
	kept, native := map[string]bool{}, map[string]bool{}
	for _, t := range cat {
		if !t.Bridged() {
			native[t.Name] = true
		}
		if t.Unoffered {
			kept[t.Name] = true
		} else {
			offerable = append(offerable, t)
		}
	}
	return &contenders{
		tai: method{name: "tai", offer: func(in string) []*tools.Tool {
			return selector.Selector{ContextTokens: window}.Select(ix, selector.Request{Query: selector.Query{Input: in}}).Tools
		}, next: func(in, traffic string) []*tools.Tool {
			return selector.Selector{ContextTokens: window}.Select(ix, selector.Request{Query: selector.Query{Input: in, Traffic: traffic}}).Tools
		}, kept: kept, native: native},
		base: newBM25(offerable),
		ev:   method{name: "bm25", kept: kept, native: native},
	}
}

// companions is m (tai's) with up to companionCount more tools of the
// server of the best-ranked bridged tool it offers: the tools a request
// of several steps may need next from the same service (issue 31 asked
// what this adds; docs/benchmarks.md, "Requests of several steps").
func companions(m method, ix *selector.Index) method {
	const companionCount = 4
	out := m
	out.name = m.name + "+companions"
	out.next = nil
	out.offer = func(in string) []*tools.Tool {
		offered := m.offer(in)
		hits := ix.Rank(selector.Query{Input: in})
		server := ""
		for _, h := range hits {
			if h.Tool.Bridged() && slices.Contains(offered, h.Tool) {
				server = h.Tool.Server
				break
			}
		}
		if server == "" {
			return offered
		}
		added := 0
		for _, h := range hits {
			if added == companionCount {
				break
			}
			if h.Tool.Server == server && !h.Tool.Unoffered && !slices.Contains(offered, h.Tool) {
				offered = append(offered, h.Tool)
				added++
			}
		}
		return offered
	}
	return out
}

// bm25At is the baseline offering its top k.
func (c *contenders) bm25At(k int) method {
	m := c.ev
	m.name = fmt.Sprintf("bm25-top%d", k)
	m.offer = func(in string) []*tools.Tool { return c.base.top(in, k) }
	return m
}

// sameShare is the baseline offering as many tokens as tai does on qs
// (on the mean, not more), and the k that does it.
func (c *contenders) sameShare(qs []query) (method, int) {
	k := c.base.equalTokens(qs, evaluate(c.tai, qs).tokens)
	return c.bm25At(k), k
}

// score is a method's quality on a set of queries.
type score struct {
	queries int
	recall  float64 // share of queries whose tool was offered
	tokens  float64 // mean estimated tokens offered
	misses  []query
	// reachable counts the queries with a tool that may be offered at
	// all; reachableRecall is the recall on those alone.
	reachable       int
	reachableRecall float64
	// native counts the queries a native tool answers; nativeRecall is
	// the recall on those alone.
	native       int
	nativeRecall float64
	// steps counts the queries of several steps; stepsRecall is the share
	// of those for which one selection offers a tool of every step.
	steps       int
	stepsRecall float64
	// stepsNext is the share of them whose every step is offered at its
	// own step: the first step's tools by the first selection, each later
	// step's by the selection after the step before it was called, with
	// that tool's name and description as the traffic (for a method with
	// next only).
	stepsNext float64
}

func evaluate(m method, qs []query) score {
	var s score
	found, foundNative := 0, 0
	for _, q := range qs {
		if reachable(m, q) {
			s.reachable++
		}
		isNative := slices.ContainsFunc(q.Tools, func(n string) bool { return m.native[n] })
		if isNative {
			s.native++
		}
		offered := m.offer(q.Query)
		bytes, hit := 0, false
		for _, t := range offered {
			bytes += selector.SpecBytes(t)
			for _, want := range q.Tools {
				hit = hit || t.Name == want
			}
		}
		if len(q.Steps) > 1 {
			s.steps++
			if everyStep(offered, q.Steps) {
				s.stepsRecall++
			}
			if m.next != nil && stepByStep(m, q, offered) {
				s.stepsNext++
			}
		}
		s.tokens += float64(selector.Tokens(bytes))
		if hit {
			found++
			if isNative {
				foundNative++
			}
		} else {
			s.misses = append(s.misses, q)
		}
	}
	s.queries = len(qs)
	if len(qs) > 0 {
		s.recall = float64(found) / float64(len(qs))
		s.tokens /= float64(len(qs))
	}
	if s.reachable > 0 {
		s.reachableRecall = float64(found) / float64(s.reachable)
	}
	if s.native > 0 {
		s.nativeRecall = float64(foundNative) / float64(s.native)
	}
	if s.steps > 0 {
		s.stepsRecall /= float64(s.steps)
		s.stepsNext /= float64(s.steps)
	}
	return s
}

// stepByStep reports whether m offers each step of q at its own step:
// offered (the first selection) holds a tool of the first step, and the
// selection made after each step, with the tool it called as traffic,
// holds one of the next.
func stepByStep(m method, q query, offered []*tools.Tool) bool {
	for i, step := range q.Steps {
		j := slices.IndexFunc(offered, func(t *tools.Tool) bool { return slices.Contains(step, t.Name) })
		if j < 0 {
			return false
		}
		if i+1 < len(q.Steps) {
			t := offered[j]
			offered = m.next(q.Query, t.Name+" "+t.Description)
		}
	}
	return true
}

// everyStep reports whether offered holds a tool of each step.
func everyStep(offered []*tools.Tool, steps [][]string) bool {
	for _, step := range steps {
		if !slices.ContainsFunc(offered, func(t *tools.Tool) bool { return slices.Contains(step, t.Name) }) {
			return false
		}
	}
	return true
}

// splits divides the queries into the tuning split and the held-out one.
func splits(qs []query) map[string][]query {
	out := map[string][]query{"all": qs}
	for _, q := range qs {
		if q.heldOut() {
			out["heldout"] = append(out["heldout"], q)
		} else {
			out["tune"] = append(out["tune"], q)
		}
	}
	return out
}

// evaluation is a catalogue with the queries asked of it, by set.
type evaluation struct {
	cat    []*tools.Tool
	total  float64 // the catalogue's tokens
	splits map[string][]query
	order  []string
}

// evaluations are the repository's queries over the captured catalogue
// (tune, heldout and all); the set written blind to the selector over that
// catalogue grown by the set's own servers (unseen); and each blind set
// (blindSets: blind to blind6, each written after the selector's
// changes that followed the one before) over its own servers and every
// earlier set's.
func evaluations(tb testing.TB) []evaluation {
	cat := benchCatalogue(tb)
	ucat := unseenCatalogue(tb)
	evs := []evaluation{
		{cat, float64(selector.NewIndex(cat).CatalogueTokens()), splits(loadQueries(tb, cat)), []string{"tune", "heldout", "all"}},
		{ucat, float64(selector.NewIndex(ucat).CatalogueTokens()),
			map[string][]query{"unseen": loadQueriesFrom(tb, ucat, filepath.Join("unseen", "queries.json"))}, []string{"unseen"}},
	}
	for i, set := range blindSets {
		file := filepath.Join(set, "queries.json")
		bcat := catalogueOf(tb, serverFolders[:i+3]...)
		qs := loadQueriesFrom(tb, bcat, file)
		if benchOwn {
			bcat = catalogueOf(tb, serverFolders[i+2])
			qs = onlyIn(bcat, qs)
		}
		evs = append(evs, evaluation{bcat, float64(selector.NewIndex(bcat).CatalogueTokens()),
			map[string][]query{set: qs}, []string{set}})
	}
	if !benchOwn { // a whole set has no servers of its own
		whole := catalogueOf(tb, serverFolders...)
		for _, set := range wholeSets {
			evs = append(evs, evaluation{whole, float64(selector.NewIndex(whole).CatalogueTokens()),
				map[string][]query{set: loadQueriesFrom(tb, whole, filepath.Join(set, "queries.json"))}, []string{set}})
		}
	}
	return evs
}

// benchOwn (TAI_BENCH_OWN set) measures each blind set over the native
// tools and its own servers alone, without the earlier sets' servers: a
// catalogue of 20 to 30 servers, the size people bring, rather than the
// one that grows with every set.
var benchOwn = os.Getenv("TAI_BENCH_OWN") != ""

// onlyIn keeps the queries with a label among cat's tools, each with
// those labels only.
func onlyIn(cat []*tools.Tool, qs []query) []query {
	have := map[string]bool{}
	for _, t := range cat {
		have[t.Name] = true
	}
	var out []query
	for _, q := range qs {
		var labels []string
		for _, n := range q.Tools {
			if have[n] {
				labels = append(labels, n)
			}
		}
		if len(labels) > 0 {
			q.Tools = labels
			out = append(out, q)
		}
	}
	return out
}

// BenchmarkSelection runs the labelled queries for tai's selector and the
// BM25 baseline side by side, the baseline offering its top k for the k
// that spends, on the mean, no more tokens than tai on the same set. Per
// set it reports recall (of every query, of those whose tool may be
// offered at all, of those a native tool answers), the mean offered
// tokens and their share of the catalogue's tokens, and (ns/op) the time
// of one selection. It runs at the 128,000-token window the selector
// assumes when it knows none and at the window of tai's default model
// (benchmark names w128000/… and w1047576/…), or at TAI_BENCH_WINDOW alone
// when that is set; with TAI_BENCH_OWN set, each blind set is measured
// over the native tools and its own servers only (benchOwn); with
// TAI_BENCH_LEXICAL set, without meaning (lexicalIfAsked).
func BenchmarkSelection(b *testing.B) {
	lexicalIfAsked(b)
	windows := []int{benchWindow}
	if benchWindow == 0 {
		windows = []int{selector.DefaultContextTokens, defaultModelWindow(b)}
	}
	evs := evaluations(b)
	for _, window := range windows {
		b.Run(fmt.Sprintf("w%d", window), func(b *testing.B) {
			for _, ev := range evs {
				b.Logf("window %d; catalogue: %d tools, %.0f tokens; sets %v", window, len(ev.cat), ev.total, ev.order)
				c := newContendersAt(ev.cat, window)
				for _, name := range ev.order {
					set := ev.splits[name]
					base, k := c.sameShare(set)
					benchSplit(b, c.tai, name, set, ev.total, 0)
					benchSplit(b, base, name, set, ev.total, k)
					if slices.Contains(wholeSets, name) {
						benchSplit(b, companions(c.tai, selector.NewIndex(ev.cat)), name, set, ev.total, 0)
					}
				}
			}
		})
	}
}

func benchSplit(b *testing.B, m method, name string, set []query, total float64, k int) {
	b.Run(name+"/"+m.name, func(b *testing.B) {
		s := evaluate(m, set)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.offer(set[i%len(set)].Query)
		}
		b.ReportMetric(100*s.recall, "recall%")
		b.ReportMetric(100*s.reachableRecall, "reachable%")
		b.ReportMetric(100*s.nativeRecall, "native%")
		b.ReportMetric(float64(s.native), "native-queries")
		b.ReportMetric(s.tokens, "tokens")
		if s.steps > 0 {
			b.ReportMetric(100*s.stepsRecall, "steps%")
			if m.next != nil {
				b.ReportMetric(100*s.stepsNext, "stepwise%")
			}
		}
		b.ReportMetric(100*s.tokens/total, "%catalogue")
		if k > 0 {
			b.ReportMetric(float64(k), "k")
		}
	})
}

// BenchmarkSelect3200 times one selection over a synthetic catalogue of
// 3,200 tools, the target being under 2 ms.
func BenchmarkSelect3200(b *testing.B) {
	cat := syntheticCatalogue(b, 3200)
	qs := loadQueries(b, benchCatalogue(b))
	c := newContenders(cat)
	for _, m := range []method{c.tai, c.bm25At(24)} {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m.offer(qs[i%len(qs)].Query)
			}
		})
	}
}

// BenchmarkIndex3200 times building the index of 3,200 tools, which
// happens once per catalogue change.
func BenchmarkIndex3200(b *testing.B) {
	cat := syntheticCatalogue(b, 3200)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		selector.NewIndex(cat)
	}
}

// TestSelection_Targets holds the selector to issue 18's targets on the
// repository's sets: recall of at least 97% of the queries whose tool may
// be offered, within 5% of the catalogue's tokens, and ahead of the BM25
// baseline given the same tokens, on every set but heldout, where it must
// not be behind: its 47 requests are both at 97.9% since the calculation
// kind, which one of them was written for, was retired (issue 31;
// docs/benchmarks.md). It holds them at the
// context window of the model tai uses unless told otherwise, where the
// budget is the 5% of the catalogue; and at the 128,000 tokens
// the selector assumes when it knows no window, where 10% of the window
// caps the budget of the unseen set's 325,756-token catalogue at 3.9% of
// it. unseen is held to 96% at both: the rules written for its requests
// were retired for meaning (issue 31), and one of its 178 reachable
// requests is lost at the larger window (docs/benchmarks.md). Speed is for the
// benchmarks.
func TestSelection_Targets(t *testing.T) {
	cat := benchCatalogue(t)
	if len(cat) < 300 {
		t.Fatalf("the benchmark catalogue has %d tools; it needs at least 300", len(cat))
	}
	if qs := loadQueries(t, cat); len(qs) < 100 {
		t.Fatalf("%d queries; the benchmark needs at least 100", len(qs))
	}
	evs := evaluations(t)
	windows := []int{defaultModelWindow(t), selector.DefaultContextTokens}
	for _, window := range windows {
		for _, ev := range evs {
			if window != windows[0] && selector.BudgetFor(int(ev.total), window) == selector.BudgetFor(int(ev.total), windows[0]) {
				continue // the same budget, so the same selections
			}
			if (slices.Contains(blindSets, ev.order[0]) || slices.Contains(wholeSets, ev.order[0])) && !testing.Verbose() {
				continue // measured, not a target: logged with -v (docs/benchmarks.md)
			}
			c := newContendersAt(ev.cat, window)
			ix := selector.NewIndex(ev.cat)
			for _, name := range ev.order {
				set := ev.splits[name]
				base, _ := c.sameShare(set)
				ours, theirs := evaluate(c.tai, set), evaluate(base, set)
				for _, r := range []struct {
					m method
					s score
				}{{c.tai, ours}, {base, theirs}} {
					t.Logf("%7d %-8s %-11s recall %5.1f%% of %3d (%5.1f%% of %d that may be offered; native %5.1f%% of %d), %5.0f tokens (%.1f%% of %.0f)",
						window, name, r.m.name, 100*r.s.recall, r.s.queries, 100*r.s.reachableRecall, r.s.reachable,
						100*r.s.nativeRecall, r.s.native, r.s.tokens, 100*r.s.tokens/ev.total, ev.total)
				}
				if testing.Verbose() {
					for _, q := range ours.misses {
						if reachable(c.tai, q) {
							t.Logf("  miss (%s): %q wants %v, ranked %d", name, q.Query, q.Tools, bestRank(ix, q))
						}
					}
				}
				if slices.Contains(blindSets, name) || slices.Contains(wholeSets, name) {
					continue
				}
				want := 0.97
				if name == "unseen" {
					want = 0.96 // 3.4% of the catalogue at 128,000 tokens; and issue 31 retired its point fixes (docs/benchmarks.md)
				}
				if ours.reachableRecall < want || ours.tokens > 0.05*ev.total {
					t.Errorf("%s at a %d-token window: recall %.1f%% of the queries whose tool may be offered, with %.0f tokens (%.1f%% of the catalogue); want ≥ %.0f%% within 5%%",
						name, window, 100*ours.reachableRecall, ours.tokens, 100*ours.tokens/ev.total, 100*want)
				}
				if ours.recall < theirs.recall || ours.recall == theirs.recall && name != "heldout" {
					t.Errorf("%s at a %d-token window: tai %.1f%%, BM25 at the same tokens %.1f%%; want tai ahead (on heldout, not behind)", name, window, 100*ours.recall, 100*theirs.recall)
				}
			}
		}
	}
}

// defaultModelWindow is the context window of the model tai uses unless
// told otherwise (the model setting's default), which tai knows.
func defaultModelWindow(tb testing.TB) int {
	k, ok := profile.LookupKey(profile.KeyModel)
	if !ok || k.Default == "" {
		tb.Fatal("the model setting has no default")
	}
	provider, model, err := llm.ParseModel(k.Default)
	if err != nil {
		tb.Fatal(err)
	}
	m, ok := llm.ModelFor(provider, model)
	if !ok || m.Window <= selector.DefaultContextTokens {
		tb.Fatalf("tai's default model %s has no known window above %d tokens (%d)", k.Default, selector.DefaultContextTokens, m.Window)
	}
	return m.Window
}

// reachable reports whether one of q's tools may be offered at all.
func reachable(m method, q query) bool {
	for _, want := range q.Tools {
		if !m.kept[want] {
			return true
		}
	}
	return false
}

// bestRank is the 1-based rank of q's best-ranked tool, 0 when none matches.
func bestRank(ix *selector.Index, q query) int {
	for i, h := range ix.Rank(selector.Query{Input: q.Query}) {
		if slices.Contains(q.Tools, h.Tool.Name) {
			return i + 1
		}
	}
	return 0
}

// BenchmarkMeaning3200 times what the first selection over a new index of
// 3,200 tools adds to the index's build: reading the word vectors (once
// per process) and each tool's meaning and terms' vectors (once per
// catalogue).
func BenchmarkMeaning3200(b *testing.B) {
	cat := syntheticCatalogue(b, 3200)
	q := selector.Query{Input: "ring my mother about dinner"}
	selector.NewIndex(cat[:1]).Rank(q) // the word vectors, read once per process
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ix := selector.NewIndex(cat)
		b.StartTimer()
		ix.Rank(q)
	}
}

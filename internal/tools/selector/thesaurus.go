package selector

import "strings"

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
// counts as the words it abbreviates, at full weight.
var abbreviations = map[string]string{
	"pr": "pull request", "prs": "pull request", "mr": "merge request", "repo": "repository",
	"repos": "repository", "db": "database", "k8s": "kubernetes", "js": "javascript",
	"ts": "typescript", "env": "environment", "config": "configuration", "msg": "message",
	"info": "information", "auth": "authentication", "ci": "ci pipeline build", "dm": "direct message",
	"url": "url link", "ui": "user interface", "img": "image", "pic": "picture", "pkg": "package",
}

// expansionWeight is what a related word counts for, against 1 for a word
// the query used itself.
const expansionWeight = 0.4

// relatedStems maps a stem to the stems of every group it belongs to.
var relatedStems = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range related {
		var stems []string
		for _, w := range strings.Fields(g) {
			stems = append(stems, Stem(w))
		}
		for _, s := range stems {
			for _, o := range stems {
				if o != s && !contains(m[s], o) {
					m[s] = append(m[s], o)
				}
			}
		}
	}
	return m
}()

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

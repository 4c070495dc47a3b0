package web

import (
	"net/url"
	"testing"
)

func TestHTMLText(t *testing.T) {
	base, _ := url.Parse("https://example.com/docs/page.html")
	tests := []struct{ name, in, title, want string }{
		{"page",
			`<!DOCTYPE html><html><head><title> The  Title </title><style>p{color:red}</style>
			<script>var x = "<p>not text</p>";</script></head>
			<body><h1>Heading</h1><p>First   paragraph
			with <b>bold</b> and a <a href="../other.html">link</a>.</p>
			<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><p>After &amp; done &lt;3</p></body></html>`,
			"The Title",
			"# Heading\n\nFirst paragraph with bold and a [link](https://example.com/other.html).\n\n- one\n- two\n  - nested\n\nAfter & done <3"},
		{"table",
			`<table><tr><th>Name</th><th>Size</th></tr><tr><td>a</td><td>1</td></tr></table>`,
			"", "Name | Size\na | 1"},
		{"pre keeps whitespace",
			"<p>Code:</p><pre>if x {\n    y()\n}</pre><p>end</p>",
			"", "Code:\n\nif x {\n    y()\n}\n\nend"},
		{"links without text or target",
			`<a href="/x"><img src="i.png"></a><a href="#top">top</a> <a href="javascript:void(0)">js</a> <a>plain</a>`,
			"", "top js plain"},
		{"comments and unknown markup",
			`a<!-- hidden <p>x</p> -->b <custom-el data-x='1>2'>c</custom-el> 1 < 2`,
			"", "ab c 1 < 2"},
		{"breaks",
			`line one<br>line two<div>block</div><hr>end`,
			"", "line one\nline two\nblock\nend"},
		{"unclosed script", `text<script>never closed`, "", "text"},
		{"upper-case tags", `<H2>Big</H2><P>Small</P><SCRIPT>x</SCRIPT>`, "", "## Big\n\nSmall"},
	}
	for _, tt := range tests {
		title, text := htmlText(tt.in, base)
		if title != tt.title || text != tt.want {
			t.Errorf("%s:\ngot title %q, text\n%q\nwant title %q, text\n%q", tt.name, title, text, tt.title, tt.want)
		}
	}
}

// Pages are untrusted: any input gives text, never a panic.
func FuzzHTMLText(f *testing.F) {
	for _, s := range []string{"<p>a<a href='x'>b</a></p>", "<pre><ul><li>x", "<a href=\"", "<!--", "<title>t", "<<>>&amp;", "<td></td><td>"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://example.com/")
	f.Fuzz(func(t *testing.T, doc string) {
		htmlText(doc, base)
	})
}

package fs

import "testing"

// FuzzDiffRoundTrip checks that apply_patch applies every diff the
// approval screen shows, giving back exactly the new content.
func FuzzDiffRoundTrip(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("x\ny", "x\ny\nz")
	f.Add("a\r\nb\r\n", "a\r\nB\r\n")
	f.Add("", "only\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		checkRoundTrip(t, a, b)
	})
}

// FuzzApplyPatch checks that no patch text crashes parsing or applying.
func FuzzApplyPatch(f *testing.F) {
	f.Add("a\nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n")
	f.Add("a", "--- f\n+++ f\n@@\n-a\n\\ No newline at end of file\n+a\n\n")
	f.Add("", "diff --git a/f b/g\nrename from f\nrename to g\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+x\n")
	f.Fuzz(func(t *testing.T, file, patch string) {
		sections, err := parsePatch(patch)
		if err != nil {
			return
		}
		for _, s := range sections {
			_, _ = applyHunks(splitText([]byte(file)), s.hunks, "f")
		}
	})
}

package vault

import (
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// On Windows the home, and the vault in it, grant access to the user tai
// runs as and to nobody else, inheriting nothing from the parent folder.
func TestOpen_OwnerOnlyACL(t *testing.T) {
	_, home := openTemp(t)
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{home, filepath.Join(home, FileName)} {
		sd, err := windows.GetNamedSecurityInfo(p, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
		if err != nil {
			t.Fatal(err)
		}
		dacl, _, err := sd.DACL()
		if err != nil || dacl == nil {
			t.Fatalf("%s: no access list (%v): everyone may open it", p, err)
		}
		if n := dacl.AceCount; n != 1 {
			t.Errorf("%s: %d access entries, want 1", p, n)
		}
		for i := range uint32(dacl.AceCount) {
			var ace *windows.ACCESS_ALLOWED_ACE
			if err := windows.GetAce(dacl, i, &ace); err != nil {
				t.Fatal(err)
			}
			sid := (*windows.SID)(unsafePointer(&ace.SidStart))
			if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !sid.Equals(user.User.Sid) {
				t.Errorf("%s: entry %d is type %d for %s, want the user %s", p, i, ace.Header.AceType, sid, user.User.Sid)
			}
		}
		if ctl, _, _ := sd.Control(); p == home && ctl&windows.SE_DACL_PROTECTED == 0 {
			t.Errorf("%s: inherits its parent's entries", p)
		}
	}
}

//go:build linux

package sandbox

// auditArch is AUDIT_ARCH_X86_64, the arch value of this build's calls.
const auditArch = 0xc000003e

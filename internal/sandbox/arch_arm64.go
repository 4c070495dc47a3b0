//go:build linux

package sandbox

// auditArch is AUDIT_ARCH_AARCH64, the arch value of this build's calls.
const auditArch = 0xc00000b7

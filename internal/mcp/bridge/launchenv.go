package bridge

import "strings"

// launchVars are environment variables that change which code a program
// loads or runs (a preloaded library, interpreter options, module search
// paths, a startup file, the programs git or a package manager starts, the
// registry or proxy a package is fetched through), so a value set for a server in its
// entry is pointed out on the consent screen. A name ending in '*' covers
// every name with that prefix. Matching ignores case: Windows and npm
// read these names case-insensitively.
var launchVars = []string{
	// the dynamic loader
	"LD_*", "DYLD_*",
	// shells and the search path
	"PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "PS4", "IFS", "ZDOTDIR",
	// Node and npm, npx, yarn, pnpm, bun
	"NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE", "NPM_CONFIG_*", "YARN_*", "BUN_CONFIG_*",
	// Python, pip and uv (uvx)
	"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONWARNINGS", "PYTHONINSPECT",
	"PYTHONEXECUTABLE", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE",
	"UV_INDEX*", "UV_DEFAULT_INDEX", "UV_EXTRA_INDEX_URL", "UV_FIND_LINKS", "UV_PYTHON", "UV_CONFIG_FILE",
	// Perl, Ruby, Lua, PHP
	"PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE",
	"LUA_INIT", "LUA_PATH", "LUA_CPATH", "PHPRC", "PHP_INI_SCAN_DIR",
	// Java and .NET
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "DOTNET_STARTUP_HOOKS",
	"DOTNET_ADDITIONAL_DEPS", "CORECLR_PROFILER*", "CORECLR_ENABLE_PROFILING",
	// Go (go run)
	"GOFLAGS", "GOPROXY", "GOTOOLCHAIN",
	// git: programs it starts and configuration it reads
	"GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_ASKPASS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
	"GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_TEMPLATE_DIR", "GIT_CONFIG*", "GIT_DIR",
	"GIT_WORK_TREE",
	// where packages are fetched from, and whom TLS trusts on the way
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
	// programs other programs start
	"EDITOR", "VISUAL", "PAGER", "SSH_ASKPASS", "SUDO_ASKPASS", "BROWSER",
}

// ChangesWhatRuns reports whether the environment variable name changes
// which code a server's programs load or run (see launchVars).
func ChangesWhatRuns(name string) bool {
	name = strings.ToUpper(name)
	for _, v := range launchVars {
		if p, ok := strings.CutSuffix(v, "*"); ok && strings.HasPrefix(name, p) || v == name {
			return true
		}
	}
	return false
}

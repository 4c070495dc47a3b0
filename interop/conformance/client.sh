#!/bin/sh
# The conformance suite's client scenarios run this with the mock server's
# URL as the last argument and the scenario in MCP_CONFORMANCE_SCENARIO.
# It drives the real tai binary ($TAI_BIN) on a fresh home: register the URL
# (tai mcp add), log in when the scenario is an auth one (tai mcp login,
# with $BROWSER following the authorization redirect), then call the
# scenario's tool (tai mcp call).
set -eu
for url; do :; done
TAI_HOME=$(mktemp -d)
export TAI_HOME
trap 'rm -rf "$TAI_HOME"' EXIT
tai=${TAI_BIN:?set TAI_BIN to the tai binary}
case "${MCP_CONFORMANCE_SCENARIO:-}" in
initialize)
	# The mock server answers initialize without a tools capability, which
	# tai refuses (mcp.md); the scenario checks the handshake tai sends.
	if "$tai" mcp add --name conformance "$url" --yes --enable; then
		echo "tai registered a server without tools" >&2
		exit 1
	fi
	;;
tools_call)
	"$tai" mcp add --name conformance "$url" --yes --enable
	"$tai" mcp call conformance add_numbers '{"a":2,"b":3}' --yes
	;;
auth/*)
	: "${BROWSER:?set BROWSER to a helper that follows the authorization redirect}"
	out=$("$tai" mcp add --name conformance "$url" --yes --enable)
	case $out in
	*"needs a login (401)"*) ;;
	*)
		echo "tai mcp add did not report that the server needs a login:" >&2
		echo "$out" >&2
		exit 1
		;;
	esac
	"$tai" mcp login conformance --yes
	"$tai" mcp call conformance test-tool '{}' --yes
	;;
*)
	echo "client.sh: no steps for scenario ${MCP_CONFORMANCE_SCENARIO:-}" >&2
	exit 2
	;;
esac

#!/bin/sh
# The conformance suite's client scenarios run this with the mock server's
# URL as the last argument and the scenario in MCP_CONFORMANCE_SCENARIO.
# It drives the real tai binary ($TAI_BIN) on a fresh home: register the URL
# (tai mcp add), log in when the scenario is an auth one (tai mcp login,
# with $BROWSER following the authorization redirect), then call the
# scenario's tool (tai mcp call).
#
# Nobody is at a terminal here: a server's elicitation is declined at once,
# except that under --yes a form whose every field has a default is
# accepted with those defaults (mcp.md, Elicitation), which is what
# elicitation-sep1034-client-defaults checks; sep-2322-client-request-state
# gets declines, and checks the retries that carry them.
set -eu
for url; do :; done
TAI_HOME=$(mktemp -d)
export TAI_HOME
trap 'rm -rf "$TAI_HOME"' EXIT
tai=${TAI_BIN:?set TAI_BIN to the tai binary}
case "${MCP_CONFORMANCE_SCENARIO:-}" in
initialize)
	# The mock server answers server/discover with {} (as it answers every
	# method it does not know), so tai must fall back to initialize; it then
	# declares no capability at all, which tai refuses as offering nothing
	# to use. The scenario checks the initialize tai sent (the Go test
	# checks that the check ran and passed).
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
	# Where an organisation would host tai's client metadata document: the
	# URL the suite expects of a client that uses one (auth/basic-cimd).
	TAI_OAUTH_CLIENT_METADATA_URL=https://conformance-test.local/client-metadata.json
	export TAI_OAUTH_CLIENT_METADATA_URL
	client=
	case "${MCP_CONFORMANCE_CONTEXT:-}" in
	*'"client_id"'*)
		# A client registered beforehand, given as a person would: its id
		# as a flag and its secret on stdin.
		id=$(printf '%s' "$MCP_CONFORMANCE_CONTEXT" | sed -n 's/.*"client_id" *: *"\([^"]*\)".*/\1/p')
		secret=$(printf '%s' "$MCP_CONFORMANCE_CONTEXT" | sed -n 's/.*"client_secret" *: *"\([^"]*\)".*/\1/p')
		client="--client-id $id --client-secret-stdin"
		;;
	esac
	out=$(printf '%s\n' "${secret:-}" | "$tai" mcp add --name conformance "$url" --yes --enable $client)
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
http-custom-headers)
	# Mcp-Param headers mirrored from the arguments x-mcp-header names.
	"$tai" mcp add --name conformance "$url" --yes --enable
	"$tai" mcp call conformance test_custom_headers --yes \
		'{"region":"us-west1","priority":5,"verbose":true,"query":"q","non_ascii_val":"Hello, 世界","whitespace_val":" padded ","leading_space_val":" lead","trailing_space_val":"trail ","internal_space_val":"a b","control_char_val":"a\u0001b","crlf_val":"a\r\nb","tab_val":"\tx"}'
	# verbose is left out (tai checks arguments against the schema first, and
	# null is not a boolean): its header must be left out too.
	"$tai" mcp call conformance test_custom_headers_null '{"region":"us-west1","priority":1,"query":"q"}' --yes
	;;
http-invalid-tool-headers)
	# The valid tool is called; a tool whose annotations break the rules
	# was left out of the list, and tai refuses to call it.
	"$tai" mcp add --name conformance "$url" --yes --enable
	"$tai" mcp call conformance valid_tool '{"region":"us-west1"}' --yes
	if "$tai" mcp call conformance invalid_empty_header '{"value":"x"}' --yes; then
		echo "tai called a tool with an invalid x-mcp-header" >&2
		exit 1
	fi
	;;
*)
	# Every other scenario: register the server and call each listed tool
	# with no arguments (a tool refusing them is the scenario's business).
	"$tai" mcp add --name conformance "$url" --yes --enable
	for tool in $("$tai" mcp tools conformance --json | sed -n 's/.*"Remote": *"\([^"]*\)".*/\1/p'); do
		"$tai" mcp call conformance "$tool" '{}' --yes || true
	done
	;;
esac

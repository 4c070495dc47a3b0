#!/usr/bin/env python3
# Benchmark: LiveMCPBench (Mo et al. 2025, arXiv:2508.01780),
# https://github.com/icip-cas/LiveMCPBench. Licence: Apache-2.0.
#
# Converts the benchmark's data (never its code) into tai's evaluation-set
# format: servers/<server>.json (one per MCP server of LiveMCPTool) and
# queries.json (the 95 annotated tasks, with their annotated tools as steps).
#
# Inputs read from the snapshot:
#   tools/LiveMCPTool/tools.json        70 servers, 527 tools (name, description, inputSchema)
#   annotated_data/all_annotations.json 95 tasks: Question + "Annotator Metadata".Tools
#
# The annotation names tools without their server. A name is looked up among
# all servers' tools; where several servers have a tool of that name
# (read_file in filesystem and desktop-commander, search in four servers), the
# candidates are narrowed to the servers that the task's unambiguous tools come
# from, if that leaves any; otherwise the step lists all of them, any of which
# counts. A task one of whose annotated tools is in no server is dropped and
# reported.
#
# Usage:
#   convert_livemcpbench.py SNAPSHOT [OUTDIR] [--rev REV]
# SNAPSHOT is a bare git directory (as `fetch` brings it) or an extracted
# checkout. OUTDIR defaults to /tmp/publicsets/livemcpbench.
# Standard library only.

import argparse
import json
import re
import sys

from common import Snapshot, finish, guard_outdir, label, server_name

NAME = "livemcpbench"
REPO = "icip-cas/LiveMCPBench"
LICENCE = "Apache-2.0"


def parse_tool_list(text):
    """'1. get-weread-rank\\n2. generate_word_cloud_chart' -> names in order."""
    names = []
    for line in text.splitlines():
        line = re.sub(r"^\s*\d+\s*[.)、]\s*", "", line).strip()
        if line:
            names.append(line)
    return names


def main():
    ap = argparse.ArgumentParser(description="Convert LiveMCPBench into tai evaluation-set format.")
    ap.add_argument("snapshot")
    ap.add_argument("outdir", nargs="?", default="/tmp/publicsets/" + NAME)
    ap.add_argument("--rev", default="HEAD")
    a = ap.parse_args()
    guard_outdir(a.outdir)
    snap = Snapshot(a.snapshot, a.rev)

    catalogue = json.loads(snap.read("tools/LiveMCPTool/tools.json"))
    tasks = json.loads(snap.read("annotated_data/all_annotations.json"))

    servers = {}
    by_name = {}  # tool name -> [label, ...]
    server_of = {}  # label -> server
    all_labels = set()
    for entry in catalogue:
        for key, body in entry["tools"].items():
            srv = server_name(key)
            if srv in servers:
                sys.exit("two servers map to %r" % srv)
            tools = []
            seen = set()
            for t in body.get("tools") or []:
                if t["name"] in seen:
                    continue
                seen.add(t["name"])
                schema = t.get("inputSchema")
                if not isinstance(schema, dict):
                    schema = {"type": "object"}
                tools.append({
                    "name": t["name"],
                    "description": t.get("description") or "",
                    "inputSchema": schema,
                })
                lab = label(srv, t["name"])
                if lab in all_labels:
                    sys.exit("label collision: " + lab)
                all_labels.add(lab)
                by_name.setdefault(t["name"], []).append(lab)
                server_of[lab] = srv
            servers[srv] = {
                "server": srv,
                "package": entry.get("web") or entry.get("name") or key,
                "tools": tools,
            }

    queries = []
    dropped = []
    ambiguous_steps = 0
    narrowed_steps = 0
    for task in tasks:
        q = " ".join(task["Question"].split())
        names = parse_tool_list(task["Annotator Metadata"]["Tools"])
        missing = [n for n in names if n not in by_name]
        if missing or not names:
            dropped.append({"task_id": task["task_id"], "query": q, "missing": missing})
            continue
        # A name several servers share is narrowed to the servers the task's
        # unambiguous tools come from, when that leaves at least one.
        used = {server_of[by_name[n][0]] for n in names if len(by_name[n]) == 1}
        steps = []
        for n in names:
            step = list(by_name[n])
            if len(step) > 1:
                narrowed = [l for l in step if server_of[l] in used]
                if narrowed:
                    step = narrowed
                    narrowed_steps += 1
            if step not in steps:  # a tool annotated twice is one step
                steps.append(step)
        ambiguous_steps += sum(1 for s in steps if len(s) > 1)
        gold = []
        for s in steps:
            for l in s:
                if l not in gold:
                    gold.append(l)
        entry = {"query": q, "tools": gold}
        if len(steps) > 1:
            entry["steps"] = steps
        queries.append(entry)

    source = {"benchmark": "LiveMCPBench", "repo": REPO, "commit": snap.commit, "licence": LICENCE}
    finish(a.outdir, servers, queries, source, {
        "tasks": len(tasks),
        "queries": len(queries),
        "steps_narrowed_by_the_tasks_other_servers": narrowed_steps,
        "steps_with_several_candidate_tools": ambiguous_steps,
    }, dropped)
    for d in dropped:
        print("dropped %s: missing %s" % (d["task_id"], ", ".join(d["missing"])), file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# Benchmark: MetaTool / ToolE (Huang et al. 2023, arXiv:2310.03128),
# https://github.com/HowieHwong/MetaTool. Licence: MIT (Copyright (c) 2023 Yue Huang).
#
# Converts the benchmark's data (never its code) into tai's evaluation-set
# format: servers/<server>.json (one per MetaTool tool, i.e. per ChatGPT
# plugin or merged plugin group) and queries.json.
#
# Inputs read from the snapshot:
#   dataset/plugin_des.json                   199 tool names -> descriptions
#   dataset/data/all_clean_data.csv           single-tool queries (Query,Tool)
#   dataset/data/multi_tool_query_golden.json multi-tool queries (two tools each)
#
# Usage:
#   convert_metatool.py SNAPSHOT [OUTDIR] [--rev REV] [--limit N]
# SNAPSHOT is a bare git directory (as `fetch` brings it) or an extracted
# checkout. OUTDIR defaults to /tmp/publicsets/metatool.
# --limit N keeps the N single-tool queries whose SHA-256 of the query text
# is smallest (default 1000; 0 keeps all); multi-tool queries are all kept.
# Standard library only.

import argparse
import csv
import hashlib
import io
import json
import sys

from common import Snapshot, finish, guard_outdir, label, server_name

NAME = "metatool"
REPO = "HowieHwong/MetaTool"
LICENCE = "MIT"


def clean_query(s):
    s = s.strip()
    # A few queries are stored wrapped in literal double quotes.
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"' and '"' not in s[1:-1]:
        s = s[1:-1].strip()
    return s


def text_hash(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def main():
    ap = argparse.ArgumentParser(description="Convert MetaTool into tai evaluation-set format.")
    ap.add_argument("snapshot")
    ap.add_argument("outdir", nargs="?", default="/tmp/publicsets/" + NAME)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--limit", type=int, default=1000)
    a = ap.parse_args()
    guard_outdir(a.outdir)
    snap = Snapshot(a.snapshot, a.rev)

    descs = json.loads(snap.read("dataset/plugin_des.json"))
    single_rows = list(csv.DictReader(io.StringIO(snap.read("dataset/data/all_clean_data.csv"))))
    multi_rows = json.loads(snap.read("dataset/data/multi_tool_query_golden.json"))

    # One server per MetaTool tool (each is a ChatGPT plugin, or one of the
    # benchmark's merged plugin groups such as FinanceTool).
    servers = {}
    labels = {}
    for tool, desc in descs.items():
        srv = server_name(tool)
        if srv in servers:
            sys.exit("two tools map to server %r" % srv)
        servers[srv] = {
            "server": srv,
            "package": "MetaTool dataset/plugin_des.json (%s)" % tool,
            "tools": [{"name": tool, "description": desc, "inputSchema": {"type": "object"}}],
        }
        lab = label(srv, tool)
        if lab in labels.values():
            sys.exit("label collision: " + lab)
        labels[tool] = lab

    dropped = []

    # Single-tool queries: merge rows with the same text (a few queries are
    # listed under several tools; any of them counts).
    order = []
    gold = {}
    for r in single_rows:
        q = clean_query(r["Query"])
        t = r["Tool"].strip()
        if not q:
            continue
        if q not in gold:
            gold[q] = []
            order.append(q)
        if t not in gold[q]:
            gold[q].append(t)
    single = []
    for q in order:
        missing = [t for t in gold[q] if t not in labels]
        if missing:
            dropped.append({"query": q, "missing": missing})
            continue
        single.append({"query": q, "tools": [labels[t] for t in gold[q]]})
    single_total = len(single)
    if a.limit and len(single) > a.limit:
        keep = set(sorted((text_hash(x["query"]) for x in single))[:a.limit])
        single = [x for x in single if text_hash(x["query"]) in keep]

    # Multi-tool queries: both tools are needed; the benchmark gives them
    # as an unordered pair, emitted here as two steps in the given order.
    multi = []
    for r in multi_rows:
        q = clean_query(r["query"])
        tools = [t.strip() for t in r["tool"]]
        missing = [t for t in tools if t not in labels]
        if missing:
            dropped.append({"query": q, "missing": missing})
            continue
        labs = []
        for t in tools:
            if labels[t] not in labs:
                labs.append(labels[t])
        entry = {"query": q, "tools": labs}
        if len(labs) > 1:
            entry["steps"] = [[l] for l in labs]
        multi.append(entry)

    queries = single + multi

    source = {"benchmark": "MetaTool (ToolE)", "repo": REPO, "commit": snap.commit, "licence": LICENCE}
    finish(a.outdir, servers, queries, source, {
        "queries": len(queries),
        "single_tool_queries": len(single),
        "single_tool_queries_available": single_total,
        "single_tool_rows": len(single_rows),
        "single_tool_limit": a.limit,
    }, dropped)


if __name__ == "__main__":
    main()

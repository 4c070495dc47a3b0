#!/usr/bin/env python3
# Benchmark: API-Bank (Li et al., EMNLP 2023, arXiv:2304.08244), the api-bank/
# folder of https://github.com/AlibabaResearch/DAMO-ConvAI.
# Licence: Apache-2.0 (api-bank/LICENSE; the DAMO-ConvAI repository as a whole is MIT).
#
# Converts the benchmark's data into tai's evaluation-set format. The API
# descriptions live as literal class attributes (description,
# input_parameters, database_name) in api-bank/apis/*.py; they are read with
# Python's ast module (ast.literal_eval), never imported or run, and none of
# that code is copied.
#
# Inputs read from the snapshot:
#   api-bank/apis/*.py                                53 API classes (ToolSearcher, the
#                                                     benchmark's own retriever, is left out)
#   api-bank/lv1-lv2-samples/level-1-given-desc/*.jsonl    214 dialogues (Call)
#   api-bank/lv1-lv2-samples/level-2-toolsearcher/*.jsonl   50 dialogues (Retrieve+Call)
#
# Servers: API-Bank's APIs are flat; they are grouped by the database each one
# declares (database_name: Agenda, Alarm, Account, ...), and an API that declares
# none is a server of its own (calculator, translate, ...).
#
# Queries: API-Bank scores each API call of a dialogue. A dialogue is cut into
# requests: a request is the user's turns up to and including the turn(s)
# that lead to one or more API calls, and ends when the user speaks again
# after a call other than GetUserToken. Its query is those user turns joined
# by a space; its gold tools are the calls other than GetUserToken (or
# GetUserToken alone if that is all it calls); when it calls more than one
# distinct API, "steps" lists them in order, GetUserToken included.
# ToolSearcher calls are ignored (the selector under test plays that part).
# User turns after the last call are dropped. Identical (query, gold) pairs are
# kept once.
#
# Usage:
#   convert_apibank.py SNAPSHOT [OUTDIR] [--rev REV] [--levels 1,2]
# SNAPSHOT is the DAMO-ConvAI bare git directory (as `fetch` brings it), or an
# extracted checkout of it, or of its api-bank/ folder alone.
# OUTDIR defaults to /tmp/publicsets/apibank. Standard library only.

import argparse
import ast
import json
import re
import sys

from common import Snapshot, finish, guard_outdir, label, server_name

NAME = "apibank"
REPO = "AlibabaResearch/DAMO-ConvAI (api-bank/)"
LICENCE = "Apache-2.0"

LEVEL_DIRS = {
    "1": "lv1-lv2-samples/level-1-given-desc",
    "2": "lv1-lv2-samples/level-2-toolsearcher",
}
AUX = "GetUserToken"
RETRIEVER = "ToolSearcher"


TYPES = {"str": "string", "string": "string", "int": "integer", "integer": "integer",
         "float": "number", "number": "number", "bool": "boolean", "boolean": "boolean",
         "list": "array", "dict": "object", "object": "object"}


def param_schema(p):
    t = str(p.get("type", "")).strip()
    m = re.fullmatch(r"list\((\w+)\)", t)
    if m:
        s = {"type": "array", "items": {"type": TYPES.get(m.group(1), "string")}}
    elif t in TYPES:
        s = {"type": TYPES[t]}
    else:
        s = {}
    if p.get("description"):
        s["description"] = p["description"]
    return s


def api_classes(source):
    """Literal class attributes of every class in a module, read with ast."""
    out = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef) or not node.bases:
            continue
        attrs = {}
        for st in node.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                try:
                    attrs[st.targets[0].id] = ast.literal_eval(st.value)
                except ValueError:
                    pass
        if "description" in attrs:
            out.append((node.name, attrs))
    return out


def requests(rows):
    """Cut one dialogue into (user text, [api calls]) requests."""
    segs = []
    users, calls = [], []
    for r in rows:
        role = r.get("role")
        if role == "User":
            if any(c != AUX for c in calls):
                segs.append((users, calls))
                users, calls = [], []
            users.append(" ".join(r.get("text", "").split()))
        elif role == "API":
            name = r.get("api_name")
            if name and name != RETRIEVER:
                calls.append(name)
    if calls:
        segs.append((users, calls))
    return [(" ".join(u for u in us if u), cs) for us, cs in segs if any(us)]


def main():
    ap = argparse.ArgumentParser(description="Convert API-Bank into tai evaluation-set format.")
    ap.add_argument("snapshot")
    ap.add_argument("outdir", nargs="?", default="/tmp/publicsets/" + NAME)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--levels", default="1,2", help="which dialogue levels to read (1, 2 or 1,2)")
    a = ap.parse_args()
    guard_outdir(a.outdir)
    snap = Snapshot(a.snapshot, a.rev)
    prefix = "api-bank/" if snap.exists("api-bank/apis") else ""
    if not snap.exists(prefix + "apis"):
        sys.exit("no api-bank/apis in " + a.snapshot)

    servers = {}
    labels = {}
    for fn in snap.listdir(prefix + "apis"):
        if not fn.endswith(".py"):
            continue
        for cls, attrs in api_classes(snap.read(prefix + "apis/" + fn)):
            if cls == RETRIEVER:
                continue
            db = attrs.get("database_name")
            srv = server_name(db if isinstance(db, str) and db else cls)
            props = {}
            for pname, p in (attrs.get("input_parameters") or {}).items():
                props[pname] = param_schema(p if isinstance(p, dict) else {})
            schema = {"type": "object"}
            if props:
                schema["properties"] = props
            s = servers.setdefault(srv, {"server": srv,
                                         "package": "API-Bank api-bank/apis (%s)" % (db or cls),
                                         "tools": []})
            if cls in labels:
                sys.exit("API %s defined twice" % cls)
            s["tools"].append({"name": cls, "description": " ".join(str(attrs["description"]).split()),
                               "inputSchema": schema})
            lab = label(srv, cls)
            if lab in labels.values():
                sys.exit("label collision: " + lab)
            labels[cls] = lab

    queries = []
    seen = set()
    dropped = []
    duplicates = 0
    dialogues = 0
    no_request = []
    per_level = {}
    for lv in [x.strip() for x in a.levels.split(",") if x.strip()]:
        d = prefix + LEVEL_DIRS[lv]
        n_before = len(queries)
        for fn in snap.listdir(d):
            if not fn.endswith(".jsonl"):
                continue
            rows = [json.loads(l) for l in snap.read(d + "/" + fn).splitlines() if l.strip()]
            dialogues += 1
            reqs = requests(rows)
            if not reqs:
                no_request.append(fn)
            for q, calls in reqs:
                order = []
                for c in calls:
                    if c not in order:
                        order.append(c)
                missing = [c for c in order if c not in labels]
                if missing:
                    dropped.append({"file": fn, "query": q, "missing": missing})
                    continue
                main_calls = [c for c in order if c != AUX] or order
                entry = {"query": q, "tools": [labels[c] for c in main_calls]}
                if len(order) > 1:
                    entry["steps"] = [[labels[c]] for c in order]
                key = json.dumps(entry, sort_keys=True)
                if key in seen:
                    duplicates += 1
                    continue
                seen.add(key)
                queries.append(entry)
        per_level[lv] = len(queries) - n_before

    source = {"benchmark": "API-Bank", "repo": REPO, "commit": snap.commit, "licence": LICENCE}
    finish(a.outdir, servers, queries, source, {
        "dialogues": dialogues,
        "queries": len(queries),
        "queries_per_level": per_level,
        "duplicates_dropped": duplicates,
        "dialogues_without_api_call": no_request,
    }, dropped)


if __name__ == "__main__":
    main()

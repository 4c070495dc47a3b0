# Shared by the converters of this folder: reading a benchmark's snapshot
# (a bare git directory, as the fetch tool brings it, or a plain folder),
# tai's naming of servers and bridged tools, and writing the output, never
# inside the repository. Standard library only.

import json
import os
import re
import subprocess
import sys


class Snapshot:
    """Reads files from a bare git directory or a plain folder."""

    def __init__(self, path, rev):
        self.path = path
        self.git = os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(
            os.path.join(path, "objects"))
        self.commit = None
        if self.git:
            self.commit = subprocess.run(
                ["git", "--git-dir", path, "rev-parse", rev + "^{commit}"],
                check=True, capture_output=True, text=True).stdout.strip()
        elif os.path.isdir(os.path.join(path, ".git")):
            r = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"],
                               capture_output=True, text=True)
            if r.returncode == 0:
                self.commit = r.stdout.strip() + " (working tree)"

    def exists(self, rel):
        if self.git:
            return subprocess.run(["git", "--git-dir", self.path, "cat-file", "-e",
                                   self.commit + ":" + rel], capture_output=True).returncode == 0
        return os.path.exists(os.path.join(self.path, rel))

    def listdir(self, rel):
        if self.git:
            r = subprocess.run(["git", "--git-dir", self.path, "ls-tree", "--name-only",
                                self.commit + ":" + rel], check=True, capture_output=True, text=True)
            return sorted(r.stdout.splitlines())
        return sorted(os.listdir(os.path.join(self.path, rel)))

    def read(self, rel):
        if self.git:
            r = subprocess.run(
                ["git", "--git-dir", self.path, "show", self.commit + ":" + rel],
                capture_output=True)
            if r.returncode != 0:
                raise FileNotFoundError(rel + ": " + r.stderr.decode(errors="replace").strip())
            return r.stdout.decode("utf-8")
        with open(os.path.join(self.path, rel), encoding="utf-8") as f:
            return f.read()


def server_name(s):
    return re.sub(r"[^a-z0-9_-]", "_", s.lower())


def label(server, tool):
    return "mcp_" + re.sub(r"[^a-z0-9]", "_", server.lower()) + "_" + \
        re.sub(r"[^a-z0-9]", "_", tool.lower())


def guard_outdir(out):
    repo_root = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    real = os.path.realpath(out)
    if real == repo_root or real.startswith(repo_root + os.sep):
        sys.exit("refusing to write converted data inside the repository (%s)" % repo_root)


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
        f.write("\n")


def write_set(outdir, servers, queries):
    """Writes servers/<server>.json (replacing any there) and queries.json;
    returns the number of tools and the bytes of their descriptions."""
    os.makedirs(os.path.join(outdir, "servers"), exist_ok=True)
    for f in os.listdir(os.path.join(outdir, "servers")):
        if f.endswith(".json"):
            os.remove(os.path.join(outdir, "servers", f))
    for srv, obj in sorted(servers.items()):
        write_json(os.path.join(outdir, "servers", srv + ".json"), obj)
    write_json(os.path.join(outdir, "queries.json"), queries)
    tools = sum(len(s["tools"]) for s in servers.values())
    desc_bytes = sum(len(t["description"].encode("utf-8")) for s in servers.values() for t in s["tools"])
    return tools, desc_bytes


def finish(outdir, servers, queries, source, counts, dropped):
    """Writes the set (write_set) and source.json: where it came from
    (source: benchmark, repo, commit, licence), its sizes, the converter's
    own counts, and the labels dropped for naming no tool of the set; prints
    that report without the dropped list."""
    n_tools, desc_bytes = write_set(outdir, servers, queries)
    report = dict(source, servers=len(servers), tools=n_tools, description_bytes=desc_bytes)
    report.update(counts)
    report.update(multi_step_queries=sum(1 for x in queries if "steps" in x),
                  dropped_missing_tool=len(dropped), dropped=dropped)
    write_json(os.path.join(outdir, "source.json"), report)
    print(json.dumps({k: v for k, v in report.items() if k != "dropped"}, indent=2))

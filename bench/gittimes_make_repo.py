"""Build a git repository with a scripted, realistic-shaped history from the Python standard library.

901 non-test stdlib .py files, one initial commit (2015-01-01), then COMMITS commits five days apart, each
touching 1-8 files chosen with Zipf weights (a few files get dozens of commits, most get none or a few),
each edit modifying, inserting or deleting a few lines; one commit renames 10 files.
Deterministic (seeded). Usage: python bench/gittimes_make_repo.py DEST [COMMITS]
"""
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

SRC = Path(sysconfig.get_paths()["stdlib"])
MERGES = os.environ.get("MERGES") == "1"
dest = Path(sys.argv[1])
commits = int(sys.argv[2]) if len(sys.argv) > 2 else 300
if dest.exists():
    shutil.rmtree(dest)
dest.mkdir(parents=True)
files = sorted(p for p in SRC.rglob("*.py") if not any(x in p.parts for x in ("site-packages", "test", "tests", "__pycache__")))
for p in files:
    rel = p.relative_to(SRC)
    (dest / rel).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(p, dest / rel)
env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@x", GIT_CONFIG_NOSYSTEM="1")
def git(*a, when=None):
    e = dict(env)
    if when is not None:
        e["GIT_AUTHOR_DATE"] = e["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    subprocess.run(["git", "-C", str(dest), *a], env=e, check=True, capture_output=True)
git("init", "-q", "-b", "main")
t = 1420070400
git("add", "-A")
git("commit", "-q", "-m", "import stdlib", when=t)
rng = random.Random(7)
paths = sorted(str(p.relative_to(SRC)) for p in files)
rng.shuffle(paths)
weights = [1 / (i + 1) ** 0.9 for i in range(len(paths))]
for c in range(commits):
    t += 5 * 86400
    if c == commits // 2:
        for old in paths[200:210]:
            new = old[:-3] + "_renamed.py"
            git("mv", old, new)
            paths[paths.index(old)] = new
        git("commit", "-q", "-m", "rename", when=t)
        continue
    for rel in set(rng.choices(paths, weights, k=rng.randint(1, 8))):
        f = dest / rel
        lines = f.read_text(errors="surrogateescape").split("\n")
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(lines))
            op = rng.random()
            if op < 0.5 and lines[i].strip():
                lines[i] = lines[i] + f"  # rev {c}"
            elif op < 0.85:
                indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
                lines.insert(i, f"{indent}# note {c}")
            elif len(lines) > 10 and lines[i].strip().startswith("#"):
                del lines[i]
        f.write_text("\n".join(lines), errors="surrogateescape")
    if MERGES:
        git("checkout", "-q", "-b", f"pr{c}")
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-m", f"edit {c}", when=t - 2 * 86400)
        git("checkout", "-q", "main")
        git("merge", "-q", "--no-ff", "-m", f"merge pr{c}", f"pr{c}", when=t)
    else:
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-m", f"edit {c}", when=t)
print(dest, len(paths), "files", commits + 1, "commits")

# ruff: noqa: E501  (cell text is kept as a reader sees it in the notebook)
"""notebooks/01-tour.ipynb: every magic once, on the bundled samples."""

NAME = "01-tour.ipynb"

CELLS = [
    ("md", """
# A tour of jqmagic

Ask questions of JSON and YAML that is too big, too nested or too remote to read, with full
jq syntax, right in the notebook. Everything here runs on sample data made by
`jqmagic.samples`: a GitHub-like API dump, application events as JSON Lines, a Kubernetes
manifest in YAML and a `package.json`. Every magic appears once: `%jq`, `%%jq`,
`%inspect` (and its `--browse` widget), `%jsonpatch`, `%webfetch`, `%websearch`, and then
the same from Python and from a terminal.
"""),
    ("code", """
%load_ext jqmagic
import sys
import jqmagic
from jqmagic import samples
paths = samples.write('sample-data')
sorted(p.name for p in paths.values())
"""),
    ("md", """
## Look before you query: `%inspect`
`%inspect` shows a document's shape: keys, the merged shape of array elements, types, and
how many objects have each key (`license` is in 86 of 300 repositories).
"""),
    ("code", "%inspect sample-data/repos.json"),
    ("code", "%inspect sample-data/k8s.yaml --depth 4"),
    ("md", """
`--browse` opens the same shape as a tree. Click a node, or use the keyboard: ↑/↓ move,
→ opens, ← closes, `/` searches keys *and* values, `c` copies the selected node's jq path
(`p` its JSON Pointer); the *jq* box runs a filter on that node when you press Enter. A
saved notebook keeps a picture of the tree as it was open.
"""),
    ("code", "%inspect sample-data/repos.json --browse"),
    ("md", """
## `%jq FILTER SOURCE`
A source is a file, a glob, a Python variable, inline JSON, a URL or a command (`-x`). The
result shows as jq prints it; `--to json` gives JupyterLab's collapsible JSON viewer.
"""),
    ("code", "%jq '.[0]' sample-data/repos.json"),
    ("code", "%jq '.[] | {full_name, stars: .stargazers_count}' sample-data/repos.json --to json"),
    ("code", "%jq '[.[] | select(.stargazers_count > 4000) | .full_name] | length' sample-data/repos.json"),
    ("md", """
Big answers are bounded: at most 100 results (and about 50k tokens) are shown, with one line
saying how many there were and how to get the next slice. The full result is kept on disk.
Each result of a stream is shown on its own (a stream is not an array), and a key that is
not there gets a "did you mean":
"""),
    ("code", "%jq '.[].full_name' sample-data/repos.json -r"),
    ("code", "%jq '.[] | .full_nam' sample-data/repos.json"),
    ("md", """
## `%%jq`: the cell is the program
Comments, `def`s and several lines are welcome.
"""),
    ("code", """
%%jq sample-data/repos.json
# the most starred language
def stars: .stargazers_count;
map(select(.language != null))
| group_by(.language)
| map({language: .[0].language, repos: length, stars: (map(stars) | add)})
| sort_by(-.stars)
"""),
    ("md", """
## YAML, JSON Lines and package.json
Formats are picked by the file's suffix (`--yaml`, `--jsonl`, `--jsonc` force them). A
multi-document YAML file gives one input per document.
"""),
    ("code", "%jq -c '{kind, name: .metadata.name}' sample-data/k8s.yaml"),
    ("code", "%jq -n '[inputs | select(.level == \"error\")] | group_by(.service) | map({service: .[0].service, errors: length})' sample-data/events.jsonl -c"),
    ("code", "%jq '.dependencies + .devDependencies | keys' sample-data/package.json -c"),
    ("md", """
## Python variables in and out
A Python variable can be the input; an unbound `$name` is taken from the notebook's
variables; `-o VAR` stores every result in a variable.
"""),
    ("code", """
orders = [{'id': 1, 'total': 30.5}, {'id': 2, 'total': 12}, {'id': 3, 'total': 99.9}]
threshold = 20
%jq '[.[] | select(.total > $threshold) | .id]' orders -c
"""),
    ("code", """
%jq '.[] | select(.fork) | {full_name, stars: .stargazers_count}' sample-data/repos.json -o forks
len(forks), forks[0]
"""),
    ("md", """
## Edit a file safely: `%jsonpatch`
We work on a copy of `package.json`. `--dry-run` shows the diff and writes nothing; without
it the change is written atomically, and everything else in the file (order, spacing) stays
byte for byte as it was.
"""),
    ("code", """
import shutil
shutil.copy('sample-data/package.json', 'sample-data/package-copy.json')
%jsonpatch sample-data/package-copy.json set /version '"1.5.0"' --dry-run
"""),
    ("code", "%jsonpatch sample-data/package-copy.json set /version '\"1.5.0\"'"),
    ("code", "%jq -c '{name, version}' sample-data/package-copy.json"),
    ("md", """
`%%jsonpatch` takes an RFC 6902 patch in the cell (or an RFC 7386 merge patch with
`--merge`); all of it applies, or nothing does.
"""),
    ("code", """
%%jsonpatch sample-data/package-copy.json
[{"op": "add", "path": "/scripts/lint", "value": "eslint ."},
 {"op": "remove", "path": "/devDependencies/vitest"}]
"""),
    ("code", "%jq -c '{scripts, devDependencies}' sample-data/package-copy.json"),
    ("md", """
## The web: `%webfetch` and `%websearch`
`%webfetch` reads a page as clean markdown (the main content, without navigation and
footers) and a JSON API as JSON. Here it reads a page this notebook serves itself on
127.0.0.1, so the tour needs no network. Magics never expand Python variables in their line
(jq uses `$`), so with the port known only now we call the magic through
`run_line_magic`; with a fixed address you would type
`%webfetch http://127.0.0.1:8000/release-notes.html --limit 30`.
"""),
    ("code", """
import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

Path('sample-data/release-notes.html').write_text('''<!doctype html>
<html><head><title>tour-app 1.5.0 release notes</title></head>
<body>
<nav><a href="/">Home</a> | <a href="/docs">Docs</a> | <a href="/blog">Blog</a></nav>
<main><article>
<h1>tour-app 1.5.0</h1>
<p>This release makes the build <strong>twice as fast</strong> and adds a lint step.
Hosting stays at $5 a month, or $20 with support.</p>
<h2>Changes</h2>
<ul><li>Vite 5.4 builds in 1.2 s instead of 2.5 s.</li>
<li>New <code>npm run lint</code> script.</li>
<li>Vitest was dropped in favour of the built-in runner.</li></ul>
<h2>Upgrade</h2>
<table><tr><th>from</th><th>steps</th></tr>
<tr><td>1.4.x</td><td>none</td></tr><tr><td>1.3.x</td><td>delete node_modules</td></tr></table>
<pre><code>npm install tour-app@1.5.0</code></pre>
</article></main>
<footer>&copy; 2025 tour-app authors. <a href="/privacy">Privacy</a></footer>
</body></html>
''')

class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep request logs out of the notebook
        pass

server = ThreadingHTTPServer(('127.0.0.1', 0),
                             functools.partial(QuietHandler, directory='sample-data'))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f'http://127.0.0.1:{server.server_port}'
"""),
    ("code", "get_ipython().run_line_magic('webfetch', f'{base}/release-notes.html --limit 30')"),
    ("md", "A JSON document over HTTP stays JSON, and `--jq` queries it on the way in:"),
    ("code", "get_ipython().run_line_magic('webfetch', f\"{base}/package-copy.json --jq '.scripts | keys'\")"),
    ("code", "server.shutdown()"),
    ("md", """
`%websearch` asks Brave or Google. It needs an API key, and without one it says which key
is missing and where to get it (this cell is expected to fail until you set one: set
`BRAVE_API_KEY` and run it again).
"""),
    ("code", "%websearch jq manual --count 3", ["raises-exception"]),
    ("md", "## Errors are one line with a hint"),
    ("code", """
try:
    jqmagic.query('.[0].owner.login | ascii_upcase(', file='sample-data/repos.json')
except jqmagic.JqMagicError as error:
    print(error.render())
"""),
    ("md", """
## The same from Python and from a terminal
Every magic is a thin face over a plain function (`jqmagic.query`, `shape`, `patch`,
`fetch`, `search`), and the `jqmagic` command does the same in a shell. (In a `!` line,
IPython fills in `{sys.executable}`; jq's own braces are doubled, `{{...}}`.)
"""),
    ("code", """
result = jqmagic.query('map(.stargazers_count) | max', file='sample-data/repos.json')
result.values, result.total
"""),
    ("code", "!{sys.executable} -m jqmagic query -c '.[:2][] | {{full_name, language}}' sample-data/repos.json"),
    ("code", "!{sys.executable} -m jqmagic inspect --format jqschema -c sample-data/repos.json"),
    ("md", """
Next: `02-learn-jq.ipynb` teaches jq step by step with checked exercises,
`03-big-files.ipynb` works on a 200 MB file, and `04-agents.ipynb` shows what an LLM agent
sees when it uses jqmagic as a tool.
"""),
]

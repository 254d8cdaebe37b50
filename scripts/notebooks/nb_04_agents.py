# ruff: noqa: E501  (cell text is kept as a reader sees it in the notebook)
"""notebooks/04-agents.ipynb: the tool protocol and its bounds, as an LLM agent sees them."""

NAME = "04-agents.ipynb"

CELLS = [
    ("md", """
# jqmagic as tools for an LLM agent

An agent (a language model driving a notebook kernel or a shell) cannot *look* at a 200 MB
file: whatever a tool returns lands in its context window, and a flood there costs money,
time and attention. jqmagic's tools are made for that reader:

- each tool is a **definition**: a name, a description written for a weak model (what it
  does, what it returns, its limits, examples) and a JSON Schema of its parameters;
- a call is **one JSON object in, one JSON object out**, the same from Python
  (`jqmagic.tools.call`), from a shell (`jqmagic tool NAME`, one request on stdin) and over
  MCP (`jqmagic mcp`, with the `mcp` extra);
- every response is **bounded** (at most 100 results and about 50,000 tokens, counted as
  the JSON the agent receives); what does not fit is kept in the payload store, and the
  response names the next call in the tool's own parameters (`next_arguments`);
- **failures are results**: `{"success": false, "error_code", "error", "hint"}`, with a hint
  naming the next step, never a traceback.

This notebook plays the agent's side on the bundled samples.
"""),
    ("code", """
import json
import os
import subprocess
import sys
from pathlib import Path

import jqmagic
import jqmagic.tools
from jqmagic import samples

samples.write('sample-data')
Path('sample-data/many-repos.json').write_text(json.dumps(samples.repos(3000), indent=1))


def call(tool, **request):
    \"\"\"Call a tool as an agent host would, and show the exchange (long text shortened here).\"\"\"
    response = jqmagic.tools.call(tool, request)
    text = json.dumps(response, indent=2, ensure_ascii=False)
    print(f'-> {tool} {json.dumps(request)}')
    print(f'<- {len(text):,} characters, about {len(text) // 4:,} tokens')
    if len(text) > 2000:  # its start and its end; the agent gets all of it
        text = text[:1000] + f'\\n   ... {len(text) - 1800:,} characters left out here ...\\n' + text[-800:]
    print(text)
    return response
"""),
    ("md", """
## What the agent is told

The host lists the tools and hands their definitions to the model. `jqmagic tool --list`
gives names, one-line summaries and the MCP annotations (`json_patch` is destructive,
`web_fetch` reaches the open world):
"""),
    ("code", """
listing = subprocess.run([sys.executable, '-m', 'jqmagic', 'tool', '--list'],
                         capture_output=True, text=True, check=True).stdout
for entry in json.loads(listing):
    hints = [k.removesuffix('Hint') for k, v in entry['annotations'].items() if v]
    print(f"{entry['name']:<18} {', '.join(hints):<38} {entry['summary'][:70]}")
"""),
    ("md", "One full definition, exactly as the model reads it:"),
    ("code", """
definition = next(d for d in jqmagic.tools.definitions() if d['name'] == 'query_json')
print(definition['description'])
print(json.dumps(definition['parameters'], indent=2))
"""),
    ("md", """
## Look before reading

A first instinct is to read the file. `read_file` refuses anything over about 100,000
tokens and says what to do instead:
"""),
    ("code", "r = call('read_file', file_path='sample-data/many-repos.json')"),
    ("md", "So the agent inspects the structure: keys, types, lengths, presence; no values."),
    ("code", "r = call('json_inspect', filePath='sample-data/many-repos.json', depth=1)"),
    ("md", """
Hosts that constrain the model's arguments (OpenAI's and Anthropic's strict mode) need
every property required and every object closed: `definitions('openai', strict=True)`
gives that form (an optional parameter is nullable, `null` meaning "not given"; defaults
and bounds are said in the description), and the tools take such answers as they are.
"""),
    ("code", """
strict = next(d for d in jqmagic.tools.definitions('openai', strict=True)
              if d['function']['name'] == 'json_inspect')
print(json.dumps(strict['function']['parameters']['properties']['depth'], indent=2))
r = call(strict['function']['name'], filePath='sample-data/repos.json', path=None,
         depth=None, format=None, stats=None)
"""),
    ("md", """
## Ask, and get a bounded answer

3,000 names are more than the bound: the response holds the first 100, the total
`count`, `next_arguments` (the same call, sliced to the next 100) and a `message` that says
so and where the whole result is kept. A full page names the page after it.
"""),
    ("code", "r = call('query_json', file_path='sample-data/many-repos.json', jq_expression='.[] | .full_name')"),
    ("code", "r = call('query_json', file_path='sample-data/many-repos.json', **r['next_arguments'])"),
    ("md", """
A single huge value is not sent at all: nothing cut mid-value reaches the model. The answer
says so, shows the value's shape and a short preview (both valid JSON, cut by depth and
width), and names the payload that keeps it, which the agent queries in turn:
"""),
    ("code", """
whole = call('jq', query='.', file='sample-data/many-repos.json')
r = call('jq', payload=whole['payload_id'], query='length')
"""),
    ("md", """
## Failures are results, with the next step

A wrong path: the hint says what *is* there. A malformed request: the hint names the
field the model meant. Neither raises.
"""),
    ("code", "r = call('query_json', file_path='sample-data/repos.json', jq_expression='.[0].owner.name | ascii_upcase')"),
    ("code", "r = call('query_json', file_path='sample-data/repos.json', expression='keys')"),
    ("md", """
A hint is written in the words of whoever asked. The agent is told about its own
parameters (`args`, `timeout`, `json_inspect` with `path`), never about a magic's or a
command line's flags; the same error, raised in Python, says it each face's way:
"""),
    ("code", "r = call('query_json', file_path='sample-data/repos.json', jq_expression='.[] | select(.stargazers_count > $least) | .full_name')"),
    ("code", """
from jqmagic.core.errors import JqMagicError

try:
    jqmagic.query('.[] | select(.stargazers_count > $least)', file='sample-data/repos.json')
except JqMagicError as exc:
    for face in ('notebook', 'terminal', 'agent'):
        print(f'{face:>8}: {exc.to_dict(face)["hint"]}')
"""),
    ("md", """
## Edits: dry run first

`json_patch` is marked destructive. A careful agent asks for the diff before it writes;
the file keeps its formatting either way, and a failed edit changes nothing.
"""),
    ("code", """
Path('sample-data/agent-package.json').write_text(Path('sample-data/package.json').read_text())
r = call('json_patch', filePath='sample-data/agent-package.json', operation='set',
         path='/scripts/lint', value='"eslint ."', dryRun=True)
"""),
    ("code", "r = call('json_patch', filePath='sample-data/agent-package.json', operation='set', path='/scripts/lint', value='\"eslint .\"')"),
    ("md", """
An edit that looks like a mistake is refused, with the call that was probably meant: a
`set` that would replace an object with a smaller one (use `merge` to change only the keys
given), or a key one typo away from an existing one. `force=true` does it anyway.
"""),
    ("code", "r = call('json_patch', filePath='sample-data/agent-package.json', operation='set', path='/scripts', value='{\"test\": \"jest\"}')"),
    ("code", "r = call('json_patch', filePath='sample-data/agent-package.json', operation='merge', path='/scripts', value='{\"test\": \"jest\"}')"),
    ("md", """
## The web, inside a sandbox

With `JQMAGIC_SANDBOX=1` (what a kernel handed to an agent should run with), fetches to
loopback, private, link-local and metadata addresses are refused, after DNS resolution and
on every redirect. A search without credentials fails with `AUTH_MISSING` and a hint.
"""),
    ("code", """
os.environ['JQMAGIC_SANDBOX'] = '1'
r = call('web_fetch', url='http://127.0.0.1:8888/admin')
r = call('web_fetch', url='http://169.254.169.254/latest/meta-data/')
del os.environ['JQMAGIC_SANDBOX']
"""),
    ("code", "r = call('web_search_brave', query='jq manual', count=3)"),
    ("md", """
## The same from a shell

`jqmagic tool NAME` reads one JSON request on stdin and writes one JSON response on
stdout (exit status 1 on failure); `--schema` prints the definition. A search without
credentials also writes a `config_required` event on stderr, for a host that can ask its
user for a key.
"""),
    ("code", """
request = json.dumps({'file_path': 'sample-data/repos.json',
                      'jq_expression': 'group_by(.language) | map({language: .[0].language, n: length})'})
run = subprocess.run([sys.executable, '-m', 'jqmagic', 'tool', 'query_json'],
                     input=request, capture_output=True, text=True)
print('exit status', run.returncode)
print(run.stdout)
"""),
    ("code", """
run = subprocess.run([sys.executable, '-m', 'jqmagic', 'tool', 'web_search_brave'],
                     input='{"query": "jq manual"}', capture_output=True, text=True,
                     env={k: v for k, v in os.environ.items() if not k.startswith('BRAVE')})
print('exit status', run.returncode)
print('stdout:', run.stdout.strip())
print('stderr:', run.stderr.strip())
"""),
    ("md", """
## Your own tools, bounded the same way

`jqmagic.tools.wrap` puts any tool handler behind the same bound (the jqschema
middleware): the whole response goes to the payload store, and the model gets a preview,
the response's shape and the payload id.
"""),
    ("code", """
def list_events():
    \"\"\"A tool of your own that returns far too much.\"\"\"
    return [json.loads(line) for line in open('sample-data/events.jsonl')]

bounded_events = jqmagic.tools.wrap(list_events)
summary = bounded_events()
print(json.dumps({k: v for k, v in summary.items() if k != 'preview'}, indent=2))
print('preview:', summary['preview'][:120], '...')
"""),
    ("md", """
Next: `jqmagic mcp` serves all of these tools over the Model Context Protocol (install
the `mcp` extra), and the same bounds apply in the notebook magics (`01-tour.ipynb`) and
on big files (`03-big-files.ipynb`).
"""),
]

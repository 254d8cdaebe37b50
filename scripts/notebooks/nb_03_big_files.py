# ruff: noqa: E501  (cell text is kept as a reader sees it in the notebook)
"""notebooks/03-big-files.ipynb: a generated 200 MB file, inspected and queried within bounds."""

NAME = "03-big-files.ipynb"

CELLS = [
    ("md", """
# Big files: look first, then ask precise questions

A 200 MB JSON file is too big to open in an editor and too big to print. This notebook
makes one (an order export), then works the way that scales:

1. **inspect** its shape without printing it,
2. ask **targeted** questions whose answers are small,
3. let the **bounds** cut the big answers, and find the whole result in the **payload store**,
4. keep an eye on the **timings**.

The size is a variable: 200 MB by default, `JQMAGIC_NOTEBOOK_MB` if set (Binder sets 50:
libjq needs about 11 times a file's size in memory while it parses it, and a Binder has
about 2 GB), and 5 MB when `JQMAGIC_NOTEBOOK_SMALL=1` is set (the test suite sets it so it
stays fast).
"""),
    ("code", """
%load_ext jqmagic
import json
import os
import random
import time
from pathlib import Path

import jqmagic

# 200 MB; JQMAGIC_NOTEBOOK_MB sets another size (Binder sets 50), JQMAGIC_NOTEBOOK_SMALL=1 5 MB
TARGET_MB = int(os.environ.get('JQMAGIC_NOTEBOOK_MB') or 200)
if os.environ.get('JQMAGIC_NOTEBOOK_SMALL') == '1':
    TARGET_MB = 5
path = Path('big/orders.json')  # the magics below spell the name out
timings = {}


def make_orders(path, target_mb, seed=42):
    \"\"\"Write {"generated", "source", "orders": [...]} of about target_mb megabytes.\"\"\"
    rng = random.Random(seed)
    countries = ['FR', 'DE', 'US', 'JP', 'BR', 'IN', 'NG', 'CA']
    statuses = ['paid'] * 90 + ['refunded'] * 2 + ['pending'] * 8
    skus = [f'SKU-{i:04d}' for i in range(500)]
    path.parent.mkdir(parents=True, exist_ok=True)
    written, count = 0, 0
    with open(path, 'w') as out:
        written += out.write('{"generated": "2025-01-01T00:00:00Z", "source": "jqmagic", '
                             '"orders": [\\n')
        while written < target_mb * 1_000_000:
            items = [{'sku': rng.choice(skus), 'qty': rng.randint(1, 5),
                      'price': rng.randint(100, 20000) / 100}
                     for _ in range(rng.randint(1, 4))]
            order = {'id': count,
                     'customer': {'id': rng.randint(1, 50000), 'country': rng.choice(countries)},
                     'status': rng.choice(statuses), 'created': 1700000000 + 7 * count,
                     'items': items, 'total': round(sum(i['qty'] * i['price'] for i in items), 2)}
            written += out.write((',\\n' if count else '') + json.dumps(order, separators=(',', ':')))
            count += 1
        out.write('\\n]}\\n')
    return count


started = time.perf_counter()
if not path.exists() or abs(path.stat().st_size / 1e6 - TARGET_MB) > 1:  # made once
    make_orders(path, TARGET_MB)
timings['generate (or reuse)'] = time.perf_counter() - started
print(f'{path}: {path.stat().st_size / 1e6:,.1f} MB')
"""),
    ("md", """
## 1. Inspect first

`%inspect` reads the file once and shows its merged shape: every key, its types, array
lengths, how often a key is present. Nothing of the data itself is printed, so this is safe
on any size (files over 256 MB are read in one streaming pass, in about 20 MB of memory).
"""),
    ("code", """
%%time
%inspect big/orders.json
"""),
    ("md", """
`--path` narrows to a part, and `--stats` adds a profile of each field: counts, distinct
values, min and max, samples. It tells us the values of `status` and the range of `total`
before we write a single filter.
"""),
    ("code", """
started = time.perf_counter()
orders_shape = jqmagic.shape(file=str(path), path='/orders', stats=True, depth=3)
timings['inspect /orders --stats'] = time.perf_counter() - started
orders_shape
"""),
    ("md", """
## 2. Targeted questions, small answers

Each question below has an answer of a few bytes, however big the file.
"""),
    ("code", """
def timed(label, program, **kwargs):
    \"\"\"Run one query on the big file and remember how long it took.\"\"\"
    result = jqmagic.query(program, file=str(path), **kwargs)
    timings[label] = result.elapsed
    return result

timed('count the orders', '.orders | length')
"""),
    ("code", "timed('one order by position', '.orders[12345]')"),
    ("code", "timed('count with select', '[.orders[] | select(.total > 390)] | length')"),
    ("code", """
timed('group by country', '.orders | group_by(.customer.country) '
      '| map({country: .[0].customer.country, orders: length, revenue: (map(.total) | add | round)})',
      compact=True)
"""),
    ("md", """
## 3. Bounded output and the payload store

Some questions have big answers. jqmagic shows at most 100 results (`limit=20` here, to
keep the page short) and about 50k tokens, says so in one line, and keeps the **whole**
result on disk in the payload store, under an id. Here: the ids of all refunded orders.
"""),
    ("code", """
refunded = timed('refunded ids (bounded)', '.orders[] | select(.status == "refunded") | .id', limit=20)
refunded
"""),
    ("code", """
print('total results:', refunded.total)
print('shown:', len(refunded.values), '| truncated:', refunded.truncated)
print('payload id:', refunded.payload_id)
print('payload file:', refunded.payload_path)
"""),
    ("md", """
The payload is plain JSON text (one value per line), so any tool reads it:
`jqmagic.payload(id)` gives the values back, and a stored payload is a source for further
queries (`%jq --payload ID`, `jqmagic query --payload ID`, or its path).
"""),
    ("code", """
every_id = jqmagic.payload(refunded.payload_id)
len(every_id), every_id[:5]
"""),
    ("code", "jqmagic.query('length', file=refunded.payload_path, slurp=True).value"),
    ("md", """
One huge value is bounded too: a slice of 2,000 orders is far more than the token bound, so
the text is cut and a line says how much there was (and the JSON tree is left out), so a
saved notebook never holds megabytes. The bounds are settings; here we lower the token bound
to 2,000 to keep the page short, and put it back afterwards.
"""),
    ("code", """
%config JqMagic.max_tokens = 2000
%jq -c '.orders[:2000]' big/orders.json
"""),
    ("code", "%config JqMagic.max_tokens = 50000"),
    ("md", """
When you do want everything, say so: `-o VAR` stores every value in a Python variable (and
prints only how many), `--all` lifts the bounds for display.
"""),
    ("code", "%jq '.orders[] | select(.customer.country == \"NG\" and .total > 600) | {id, total}' big/orders.json -o rich_ng\nlen(rich_ng), rich_ng[:2]"),
    ("md", """
## 4. Bigger than the budget: one streaming pass

jqmagic keeps parsed files for later questions within a budget (`doc_cache_bytes`, a
quarter of the machine's memory by default, at least 1 GiB). A file bigger than that is not parsed whole at all: a question of a shape that
streams is answered in **one pass** over the file, holding one order at a time (and only
what the question keeps), so memory stays flat however big the file is. The shapes:
`PATH[] | F`, `[PATH[] | F] | length` (or `add`, `min`, `max`, `unique`, `group_by(...)`,
any program on the kept values), `first(...)`, `limit(n; ...)`, `PATH | length`, `.[K]`.

Here the budget is lowered to 2 MB so that our file counts as big (on your machine, think of
a 20 GB export). The answers are the same as before, number for number.
"""),
    ("code", """
from jqmagic.core.settings import Settings
%config JqMagic.doc_cache_bytes = 2_000_000
streamed = timed('streamed: count with select', '[.orders[] | select(.total > 390)] | length')
print(streamed.value, 'by the', streamed.engine, 'engine')
"""),
    ("code", """
timed('streamed: revenue by country', '[.orders[] | {c: .customer.country, t: .total}] '
      '| group_by(.c) | map({country: .[0].c, revenue: (map(.t) | add | round)})', compact=True)
"""),
    ("md", """
A question that needs the whole file at once says so, and shows the shape that streams,
instead of filling the machine's memory:
"""),
    ("code", """
try:
    jqmagic.query('.orders | map(.total) | add', file=str(path))
except jqmagic.JqMagicError as error:
    print(error.code, '-', error.message)
    print('Hint:', error.hint)
"""),
    ("code", """
%config JqMagic.doc_cache_bytes = Settings().doc_cache_bytes
"""),
    ("md", """
## 5. A folder of logs on a Dask cluster

When the files are many, `--dask` (`dask=` in Python) runs the per-file program on a Dask
cluster: the current client, a scheduler address, or a `LocalCluster` it starts. Each file
is read where a Dask worker runs, and the answers come back in file order, bounded as
always; `--reduce PROGRAM` combines them (the array of every result is its input, as with
`jq -s`). Dask is an optional extra: `pip install 'jqmagic[dask]'`.
"""),
    ("code", """
try:
    from dask.distributed import Client, LocalCluster
except ImportError:
    Client = None
    print("dask.distributed is not installed: pip install 'jqmagic[dask]' runs this part.")

logs = Path('big/logs')
logs.mkdir(parents=True, exist_ok=True)
rng = random.Random(1)
LINES = 2_000 if TARGET_MB <= 5 else 50_000
for day in range(4):
    with open(logs / f'app-2025-01-0{day + 1}.jsonl', 'w') as out:
        for i in range(LINES):
            out.write(json.dumps({'ts': 1735689600 + day * 86400 + i, 'level': rng.choice(
                ['info'] * 9 + ['error']), 'path': rng.choice(['/api/orders', '/api/users',
                '/api/pay']), 'ms': rng.randint(1, 900)}) + '\\n')
if Client is not None:
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=':0')
    client = Client(cluster)
    print('Dask dashboard:', client.dashboard_link)
"""),
    ("code", """
if Client is not None:
    errors = jqmagic.query('select(.level == "error") | {ts, path, ms}', 'big/logs/*.jsonl',
                           dask='', limit=5, compact=True)
    display(errors)
"""),
    ("code", """
if Client is not None:
    worst = jqmagic.query('select(.level == "error") | {path, ms}', 'big/logs/*.jsonl', dask='',
                          reduce='group_by(.path) | map({path: .[0].path, errors: length, '
                                 'slowest_ms: (map(.ms) | max)})', compact=True)
    serial = jqmagic.query('[inputs | select(.level == "error") | {path, ms}] | group_by(.path) '
                           '| map({path: .[0].path, errors: length, slowest_ms: (map(.ms) | max)})',
                           'big/logs/*.jsonl', null_input=True, compact=True)
    print(worst.text)
    print('same as one process:', worst.text == serial.text)
    client.close()
    cluster.close()
"""),
    ("md", """
## 6. Timings

Everything above, in seconds. Two engines answer: programs in jqmagic's fast-path subset
(paths, `select`, comparisons, `length`, ...) run in the kernel on a parsed tree that is
cached per file version, so after the first parse (about 2 s for 200 MB here) they take
milliseconds; other programs (`group_by` here) go to libjq in its worker process, which
parses the file itself each time (about 10 s and 11 times the file's size in memory for
200 MB). Either way the answers are the same, and either way the shape comes first and each
question is asked once, precisely.
"""),
    ("code", """
width = max(map(len, timings))
for label, seconds in timings.items():
    print(f'{label:<{width}}  {seconds:7.2f} s')
"""),
]


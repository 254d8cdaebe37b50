# ruff: noqa: E501  (cell text is kept as a reader sees it in the notebook)
"""notebooks/02-learn-jq.ipynb: a jq course for beginners, each lesson with a checked exercise."""

NAME = "02-learn-jq.ipynb"

EX = ["exercise"]  # an exercise: `answer = ''` until the learner writes it
SOL = ["solution"]  # its solution, folded under "Show a solution" (tests fill answers from it)


def solution(code: str) -> tuple:
    """The cell that keeps an exercise's solution, ``code``, folded under "Show a solution"."""
    return ("md", f"""
<details><summary>Show a solution</summary>

```python
{code}
```
</details>
""", SOL)


CELLS = [
    ("md", """
# Learn jq in ten short lessons

jq is a small language for picking, filtering and reshaping JSON. Each lesson shows a few
filters on a tiny bookshop, then gives you an exercise. Exercises are checked right here:
`jqmagic.check(answer, expected, ...)` runs your filter and tells you whether it gives the
expected value; if not, it shows what differs (a diff, and a sentence about it) and a hint.

Each exercise starts empty: write your filter between the quotes of `answer = ''` and run
the cell. Stuck? Open **Show a solution** under it (try first: the check's diff and hint
are there to help). In a diff, lines with `-` are what was expected, lines with `+` what
your filter gave.
"""),
    ("code", """
%load_ext jqmagic
import jqmagic
from jqmagic import samples
samples.write('sample-data')

shop = {
    "name": "Paper & Ink",
    "address": {"city": "Lyon", "zip": "69002"},
    "books": [
        {"title": "Dune", "author": "Frank Herbert", "year": 1965, "price": 9.5,
         "tags": ["sf", "classic"], "stock": 4},
        {"title": "Neuromancer", "author": "William Gibson", "year": 1984, "price": 8.0,
         "tags": ["sf", "cyberpunk"], "stock": 0},
        {"title": "Emma", "author": "Jane Austen", "year": 1815, "price": 6.25,
         "tags": ["classic", "romance"], "stock": 2},
        {"title": "The Hobbit", "author": "J. R. R. Tolkien", "year": 1937, "price": 7.75,
         "tags": ["fantasy", "classic"], "stock": 7},
        {"title": "Kindred", "author": "Octavia E. Butler", "year": 1979, "price": 10.0,
         "tags": ["sf"], "stock": 0},
    ],
}
"""),
    ("md", """
## How the checks work

`%jq FILTER shop` runs a filter on the Python variable `shop`. `.` is the whole input:
"""),
    ("code", "%jq '.' shop"),
    ("md", """
`jqmagic.check` takes your filter, the value you should get, and the input. Here is a
*wrong* answer, to show what a miss looks like: we asked for the shop's name.
"""),
    ("code", """
jqmagic.check('.address', "Paper & Ink", value=shop,
              hint="The name is a key at the top level: .name")
"""),
    ("md", """
## 1. Paths

`.key` picks a key, `.a.b` goes deeper, `.[0]` picks an array element (from 0; `.[-1]` is
the last), `.[1:3]` slices. Keys with odd characters need quotes: `."zip-code"`.
`.missing` gives `null`, not an error.
"""),
    ("code", "%jq '.address.city' shop"),
    ("code", "%jq '.books[0].title, .books[-1].title' shop"),
    ("code", "%jq -c '.books[1:3] | map(.title)' shop"),
    ("md", """
**Let the data complete your paths.** You need not remember the keys: in a `%jq` cell,
put the cursor inside the program and press **Tab**. In the cell below, delete `title` so
that the program reads `'.books[0].'`, leave the cursor right after the dot and press Tab:
the list holds the keys a book has, each with its type and how many books have it
(`.price  number, in all 5`). Pick one with the arrow keys and Enter, then run the cell.
Tab knows the data after `|` and inside `select(` or `map(` too (`%jq '.books | ma` offers
`map(` and `max_by(`). The tree of `%inspect shop --browse` has a jq box that completes the
same way while you type, and shows the first results as the program changes.
"""),
    ("code", "%jq '.books[0].title' shop"),
    ("md", "**Exercise 1.** The tags of the *second* book, as one array."),
    ("code", """
answer = ''
jqmagic.check(answer, ["sf", "cyberpunk"], value=shop,
              hint="Arrays count from 0, so the second book is .books[1].")
""", EX),
    solution("answer = '.books[1].tags'"),
    ("md", """
## 2. Iteration and pipes

`.books[]` gives each element as a separate output: a *stream*. `|` feeds every output of
the left side into the right side. `,` gives the outputs of both sides.
"""),
    ("code", "%jq '.books[] | .title' shop"),
    ("code", "%jq -c '.books[] | [.title, .year]' shop"),
    ("md", """
**Exercise 2.** Every author, as separate outputs (a stream of five strings).
`outputs=True` tells `check` to compare the whole stream.
"""),
    ("code", """
answer = ''
jqmagic.check(answer, ["Frank Herbert", "William Gibson", "Jane Austen", "J. R. R. Tolkien",
                       "Octavia E. Butler"], value=shop, outputs=True,
              hint="Iterate with .books[] and pipe each book into .author.")
""", EX),
    solution("answer = '.books[] | .author'"),
    ("md", """
## 3. `select`: keep what matches

`select(condition)` lets an input through when the condition is true, and drops it
otherwise. Conditions use `==`, `!=`, `<`, `>=`, `and`, `or`, `not`. Wrap a stream in
`[...]` to collect it into one array.
"""),
    ("code", "%jq -c '[.books[] | select(.year < 1950) | .title]' shop"),
    ("code", "%jq -c '[.books[] | select(any(.tags[]; . == \"sf\")) | .title]' shop"),
    ("md", "**Exercise 3.** The titles of the books *in stock* that cost *less than 9*, as one array."),
    ("code", """
answer = ''
jqmagic.check(answer, ["Emma", "The Hobbit"], value=shop,
              hint="Two conditions joined with and, inside one select(...); "
                   "collect the titles with [ ... ].")
""", EX),
    solution("answer = '[.books[] | select(.stock > 0 and .price < 9) | .title]'"),
    ("md", """
## 4. `map`, `add`, `length`

`map(f)` runs `f` on every element of an array and gives a new array: it is
`[.[] | f]`. `add` sums numbers (or joins strings and arrays), `length` counts,
`min`, `max`, `sort`, `unique` do what they say.
"""),
    ("code", "%jq -c '.books | map(.price)' shop"),
    ("code", "%jq '.books | map(.stock) | add' shop"),
    ("md", "**Exercise 4.** The value of the stock: the sum of `price * stock` over all books."),
    ("code", """
answer = ''
jqmagic.check(answer, 104.75, value=shop,
              hint="map(.price * .stock) gives one number per book; add sums them.")
""", EX),
    solution("answer = '.books | map(.price * .stock) | add'"),
    ("md", """
## 5. Building objects

`{title, year}` keeps those keys; `{name: .title}` renames; values can be any filter in
parentheses, `{age: (2025 - .year)}`; a key can be computed too, `{(.title): .year}`.
"""),
    ("code", "%jq -c '.books[] | {title, age: (2025 - .year)}' shop"),
    ("code", "%jq -c '.books | map({(.title): .stock}) | add' shop"),
    ("md", """
**Exercise 5.** An array with one object per book, holding its `title` and `classic`:
`true` when the book's tags contain `"classic"`.
"""),
    ("code", """
answer = ''
jqmagic.check(answer, [
    {"title": "Dune", "classic": True}, {"title": "Neuromancer", "classic": False},
    {"title": "Emma", "classic": True}, {"title": "The Hobbit", "classic": True},
    {"title": "Kindred", "classic": False}], value=shop,
    hint="Inside map(...), build {title, classic: (...)}; "
         "any(.tags[]; . == \\"classic\\") or .tags | index(\\"classic\\") != null tests membership.")
""", EX),
    solution("""answer = '.books | map({title, classic: (.tags | index("classic") != null)})'"""),
    ("md", """
## 6. `reduce`: fold a stream into one value

`reduce STREAM as $x (START; UPDATE)` starts with `START` and runs `UPDATE` once per
output of `STREAM`, with `.` the value so far and `$x` the current item.
"""),
    ("code", "%jq 'reduce .books[] as $b (0; . + $b.stock)' shop"),
    ("md", """
**Exercise 6.** Count the books per tag with `reduce`: an object from tag to count.
(`.[$t] += 1` adds one to key `$t`, starting from `null`, which counts as 0.)
"""),
    ("code", """
answer = ''
jqmagic.check(answer, {"sf": 3, "classic": 3, "cyberpunk": 1, "romance": 1, "fantasy": 1},
              value=shop, hint="Start from {} and iterate .books[].tags[].")
""", EX),
    solution("answer = 'reduce .books[].tags[] as $t ({}; .[$t] += 1)'"),
    ("md", """
## 7. `group_by`, `sort_by`, `unique_by`

`group_by(f)` sorts an array by `f` and splits it into arrays of equal `f`. A common
pattern: `group_by(.key) | map({key: .[0].key, count: length})`. Here on bigger data:
`sample-data/repos.json` holds 300 repositories.
"""),
    ("code", "%jq -c 'group_by(.owner.type) | map({type: .[0].owner.type, repos: length})' sample-data/repos.json"),
    ("code", "%jq -c 'sort_by(-.stargazers_count) | .[:3] | map({full_name, stars: .stargazers_count})' sample-data/repos.json"),
    ("md", """
**Exercise 7.** `sample-data/events.jsonl` has one event per line. Read them all into one
array (`slurp=True`, like `jq -s`) and count the events per `level`, as
`[{"level": ..., "count": ...}]` sorted by level. The expected value is computed in Python
below, so you can compare both ways of doing it.
"""),
    ("code", """
import json
from collections import Counter
counts = Counter(json.loads(line)['level'] for line in open('sample-data/events.jsonl'))
expected = [{"level": level, "count": n} for level, n in sorted(counts.items())]

answer = ''
jqmagic.check(answer, expected, file='sample-data/events.jsonl', slurp=True,
              hint="group_by(.level) gives one array per level; count each with length.")
""", EX),
    solution("answer = 'group_by(.level) | map({level: .[0].level, count: length})'"),
    ("md", """
## 8. Strings

`"\\(.title) (\\(.year))"` interpolates; `ascii_downcase`, `ascii_upcase`, `split(" ")`,
`join(", ")`, `startswith`, `endswith`, `ltrimstr`, `test("regex")`, `length` and
`tostring` / `tonumber` convert.
"""),
    ("code", r"""%jq -r '.books[] | "\(.title) (\(.year))"' shop"""),
    ("code", """%jq -c '[.books[] | select(.author | test("^J")) | .author | ascii_upcase]' shop"""),
    ("md", "**Exercise 8.** One string per book, `\"TITLE by SURNAME\"`, in one array: the surname is the last word of the author."),
    ("code", r"""
answer = ''
jqmagic.check(answer, ["Dune by Herbert", "Neuromancer by Gibson", "Emma by Austen",
                       "The Hobbit by Tolkien", "Kindred by Butler"], value=shop,
              hint='split(" ") gives the words of the author; last picks the surname; '
                   'interpolate with "\\(...)".')
""", EX),
    solution(r"""answer = r'[.books[] | "\(.title) by \(.author | split(" ") | last)"]'"""),
    ("md", """
## 9. Variables: `$name`

`--arg name value` binds a string, `--argjson name json` any JSON value; `EXPR as $x | ...`
binds inside the program. In a notebook, a `$name` the program does not bind comes from the
Python variable of that name, so `budget` below is seen by jq as `$budget`.
"""),
    ("code", """
budget = 8
%jq -c '[.books[] | select(.price <= $budget) | .title]' shop
"""),
    ("code", "%jq -c --arg tag classic '[.books[] | select(any(.tags[]; . == $tag)) | .title]' shop"),
    ("code", "%jq -c '.address.city as $city | .books | map(\"\\(.title), sold in \\($city)\")' shop"),
    ("md", """
**Exercise 9.** With `$min` and `$max` given (`args=` here, `--argjson` on the command line),
the titles of the books published from `$min` to `$max`, both years included.
"""),
    ("code", """
answer = ''
jqmagic.check(answer, ["Dune", "Neuromancer", "Kindred"], value=shop,
              args={"min": 1965, "max": 1984},
              hint="Compare .year with $min and $max inside select(...).")
""", EX),
    solution("answer = '[.books[] | select(.year >= $min and .year <= $max) | .title]'"),
    ("md", """
## 10. Putting it together

A report in one program: per tag, the number of books, their total stock and the cheapest
title. Use `%%jq` for programs longer than a line; comments are welcome.
"""),
    ("code", """
%%jq shop
[.books[] | .tags[] as $tag | {tag: $tag, title, price, stock}]
| group_by(.tag)
| map({tag: .[0].tag,
       books: length,
       stock: (map(.stock) | add),
       cheapest: (min_by(.price) | .title)})
"""),
    ("md", """
**Exercise 10.** The title of the most expensive book that is in stock.
"""),
    ("code", """
answer = ''
jqmagic.check(answer, "Dune", value=shop,
              hint="Keep the books in stock with select, collect them, then max_by(.price).")
""", EX),
    solution("answer = '[.books[] | select(.stock > 0)] | max_by(.price) | .title'"),
    ("md", """
## 11. See the work, and get a program from an example

When a long pipeline gives a surprise, `--explain` runs it stage by stage on the real
input: how many values went into each stage and came out, a few of them, which inputs a
`select` dropped, where a `null` was first made and from what, where an error was raised.
This pipeline (from jq's issue 2206) ends with a `null`. Where does it come from?
"""),
    ("code", """
letters = ["a", "b", "c"]
%jq --explain 'map(ascii_upcase) | reverse | .[] | [match("[ACD]").string] | map(ascii_downcase) | reverse | add' letters
"""),
    ("md", """
Stage 7, `add`, made it: `add` of an empty array is `null`, and stage 4 gave `[]` for
`"B"` (look inside its `[...]`: `match` dropped `"B"`). In JupyterLab, click a stage to see
its values; `jqmagic query --explain` prints the same view in a terminal. Each output also
shows the path it came from:
"""),
    ("code", "%jq --explain '.books[] | select(.stock > 0) | .title' shop"),
    ("md", """
The other way round: you know the output you want, not the program. `--suggest` takes the
output (as JSON) and searches jq's grammar for the shortest programs that give it, each
checked by running it in jq. No guessing: if nothing fits in time, it says so.
"""),
    ("code", "%jq --suggest '\"Lyon\"' shop"),
    ("md", """
From Python, `jqmagic.suggest(input, output)`; several examples pin a program down where
one allows many (one book alone could be `[.[0].title]`):
"""),
    ("code", """
jqmagic.suggest(examples=[
    ([{"title": "A", "stock": 1}], ["A"]),
    ([{"title": "B", "stock": 0}, {"title": "C", "stock": 2}], ["B", "C"]),
])
"""),
    ("md", """
Well done. The jq manual (jqlang.org/manual) has everything else: `paths`, `to_entries`,
`walk`, `limit`, `try`/`catch`, `@csv`, `@base64`, modules. Next:
`03-big-files.ipynb` for files too big to open, and `04-agents.ipynb` for jqmagic as a
tool for LLM agents.
"""),
]

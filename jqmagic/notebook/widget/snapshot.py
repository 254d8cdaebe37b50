"""A static picture of the schema tree (HTML and text): what a saved notebook, nbviewer,
GitHub and nbconvert show where the live view cannot run. Its first levels are open (keys
in view) whatever the live tree had open, and its layout is a ``<pre>`` block, which every
renderer keeps (GitHub drops style attributes)."""

from __future__ import annotations

from jqmagic.notebook.display import NO_MATH, escape_html

ROWS = 200  # rows a snapshot shows at most
LEVELS = 2  # levels always opened, and more while they fit in FIRST_ROWS rows
FIRST_ROWS = 40


def _line(row: dict) -> tuple[str, str, str, str]:
    mark = ("▾" if row["open"] else "▸") if row["kids"] else " "
    extra = " ".join(filter(None, [row["size"], f"(in {row['presence']})" if row["presence"]
                                   else "", row["sample"]]))
    return "  " * row["depth"] + mark, row["name"], row["type"], extra


def _rows(tree) -> tuple[list[dict], int]:
    """The rows the picture shows, and how many the tree has open in all (those shown
    are the first of them)."""
    flat = tree.outline(LEVELS, FIRST_ROWS, ROWS + 1)
    return tree.rows(0, ROWS, flat), len(flat)


def _count(shown: int, total: int) -> str:
    if total > shown:
        return f"the first {shown:,} rows"
    return f"{shown:,} row{'s' * (shown != 1)}"


def html(tree, selected: str, title: str, uid: str) -> str:
    """The first levels and the open rows (at most ROWS) and the selected node's details."""
    rows, total = _rows(tree)
    lines = []
    for row in rows:
        lead, name, kind, extra = (escape_html(part) for part in _line(row))
        line = f"{lead} <b>{name}</b>  <i>{kind}</i>  {extra}".rstrip()
        lines.append(f"<mark>{line}</mark>" if row["id"] == selected else line)
    if total > len(rows):
        lines.append("… more rows: run the cell for the live browser")
    details = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{escape_html(k)}"
                      f"</th><td style='text-align:left'><code>{escape_html(v)}</code></td></tr>"
                      for k, v in tree.details(selected))
    return (f"<div class='jqmagic-snapshot {NO_MATH}' data-uid='{escape_html(uid)}'>"
            f"<style>{_hide_dead_view(escape_html(uid))}</style>"
            f"<p>Schema of <b>{escape_html(title)}</b>: {_count(len(rows), total)} (a saved "
            "view of the tree; run the cell for the live browser)</p>"
            f"<pre style='max-height:30em;overflow:auto;margin:0'>{chr(10).join(lines)}</pre>"
            f"<table>{details}</table></div>")


def _hide_dead_view(uid: str) -> str:
    """CSS hiding the widget's own output beside this snapshot while it holds no live view
    (a reopened notebook without its kernel says "Error displaying widget: model not
    found" there); where styles are dropped (GitHub) nothing shows there anyway."""
    snapshot = f'.jqmagic-snapshot[data-uid="{uid}"]'
    return ",".join(f"{area}:not(:has(.jqm-root)):has(+ {area} {snapshot})"
                    for area in (".jp-OutputArea-child", ".output_area")) + \
        "{display:none}"


def text(tree, selected: str, title: str) -> str:
    """The same as plain text."""
    rows, total = _rows(tree)
    lines = [f"Schema of {title}: {_count(len(rows), total)}"]
    for row in rows:
        lead, name, kind, extra = _line(row)
        lines.append(f"{lead} {name}  {kind}  {extra}".rstrip())
    lines += [f"{k}: {v}" for k, v in tree.details(selected)]
    return "\n".join(lines)

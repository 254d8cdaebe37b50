"""A static picture of the schema tree (HTML and text): what a saved notebook, nbviewer
and nbconvert show where the live view cannot run."""

from __future__ import annotations

from jqmagic.display import NO_MATH, escape_html

ROWS = 200  # rows a snapshot shows at most


def _line(row: dict) -> tuple[str, str, str, str]:
    mark = ("▾" if row["open"] else "▸") if row["kids"] else " "
    extra = " ".join(filter(None, [row["size"], f"({row['presence']})" if row["presence"]
                                   else "", row["sample"]]))
    return "  " * row["depth"] + mark, row["name"], row["type"], extra


def html(tree, selected: str, title: str, uid: str) -> str:
    """The open rows (at most ROWS) and the selected node's details."""
    flat = tree.flat()
    rows = []
    for row in tree.rows(0, ROWS):
        lead, name, kind, extra = (escape_html(part) for part in _line(row))
        mark = " style='background:rgba(0,120,215,.15)'" if row["id"] == selected else ""
        rows.append(f"<div{mark}><span style='white-space:pre'>{lead} </span><b>{name}</b> "
                    f"<span style='color:#0a6;font-size:85%'>{kind}</span> "
                    f"<span style='color:#888'>{extra}</span></div>")
    if len(flat) > ROWS:
        rows.append(f"<div style='color:#888'>… {len(flat) - ROWS:,} more rows</div>")
    details = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{escape_html(k)}"
                      f"</th><td style='text-align:left'><code>{escape_html(v)}</code></td></tr>"
                      for k, v in tree.details(selected))
    return (f"<div class='jqmagic-snapshot {NO_MATH}' data-uid='{escape_html(uid)}' "
            "style='font-family:var(--jp-code-font-family,monospace);font-size:12px'>"
            f"<div style='color:#888'>Schema of {escape_html(title)} (a saved view of the "
            "tree; run the cell for the live browser)</div>"
            f"<div style='max-height:30em;overflow:auto'>{''.join(rows)}</div>"
            f"<table>{details}</table></div>")


def text(tree, selected: str, title: str) -> str:
    """The same as plain text."""
    lines = [f"Schema of {title}"]
    for row in tree.rows(0, ROWS):
        lead, name, kind, extra = _line(row)
        lines.append(f"{lead} {name}  {kind} {extra}".rstrip())
    lines += [f"{k}: {v}" for k, v in tree.details(selected)]
    return "\n".join(lines)

#!/bin/sh
# Makes docs/browse-tmux.txt: `jqmagic browse` on 300 pods in a 100 x 30 tmux pane, a
# program typed with Tab completions, the pane captured as text before and after a Tab. Run from the repository's
# root with its venv: sh docs/browse-capture.sh
set -eu
PY=${PY:-.venv/bin/python}
dir=$(mktemp -d)
trap 'tmux kill-session -t jqmagic-doc 2>/dev/null || true; rm -rf "$dir"' EXIT
"$PY" - "$dir/pods.json" <<'PYTHON'
import json, sys
pods = [{"metadata": {"name": f"web-{i}", "namespace": ["prod", "dev"][i % 2],
                      **({"annotations": {"team": "core"}} if i % 4 == 0 else {})},
         "spec": {"nodeName": f"node-{i % 7}", "containers": [{"image": "nginx:1.27"}]},
         "status": {"phase": "Running" if i % 10 else "Pending"}} for i in range(300)]
json.dump({"apiVersion": "v1", "kind": "List", "items": pods}, open(sys.argv[1], "w"))
PYTHON
tmux new-session -d -s jqmagic-doc -x 100 -y 30 "$PY -m jqmagic browse $dir/pods.json"
sleep 4
keys() { tmux send-keys -t jqmagic-doc "$@"; sleep 1.5; }
keys C-u
keys -l '.items[] | select(.metadata.an'
keys Down
keys Tab
keys -l ') | .spec.nodeN'
sleep 2
{
  echo "jqmagic browse pods.json: '.items[] | select(.metadata.an', Down, Tab, ') | .spec.nodeN' typed"
  tmux capture-pane -p -t jqmagic-doc | sed 's/[[:space:]]*$//'
  keys Down
  keys Tab
  sleep 2
  echo "then Down and Tab take .nodeName: the preview follows"
  tmux capture-pane -p -t jqmagic-doc | sed 's/[[:space:]]*$//'
} > docs/browse-tmux.txt
keys Escape
keys Escape

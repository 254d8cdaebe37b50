"""Test-wide environment: what jq's suite assumes, set before any worker starts."""

import os

os.environ.setdefault("PAGER", "less")
os.environ["LC_ALL"] = "C"

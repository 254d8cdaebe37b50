"""What agents may touch: the agent faces (``jqmagic tool``, ``jqmagic mcp``, the drop-in
executables) run sandboxed by default, opened up only by their own flags or environment.

The sandbox confines files to the allowed roots (the working directory unless given),
refuses shell commands and refuses private, loopback and link-local web addresses;
web_fetch honours robots.txt unless ``--ignore-robots-txt`` (or JQMAGIC_IGNORE_ROBOTS_TXT=1).
"""

from __future__ import annotations

import argparse

from jqmagic.core.settings import configure, env_flag, env_paths

robots_honoured = True
"""Whether web_fetch honours robots.txt (the agent faces' default; their flag turns it off)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that open the sandbox up (the same in every agent face)."""
    group = parser.add_argument_group("sandbox (on by default for agents)")
    group.add_argument("--allow-root", action="append", default=[], metavar="DIR",
                       help="a folder whose files the tools may read and patch (repeatable; "
                            "default: the working directory; or JQMAGIC_ALLOWED_ROOTS)")
    group.add_argument("--allow-exec", action="store_true",
                       help="let the jq tool run shell commands (exec); or "
                            "JQMAGIC_EXEC_ALLOWED=1")
    group.add_argument("--allow-private-addresses", action="store_true",
                       help="let web_fetch reach private, loopback and link-local addresses; "
                            "or JQMAGIC_PRIVATE_ADDRESSES=1")
    group.add_argument("--ignore-robots-txt", action="store_true",
                       help="let web_fetch read pages a site's robots.txt keeps from "
                            "automated agents; or JQMAGIC_IGNORE_ROBOTS_TXT=1")
    group.add_argument("--no-sandbox", action="store_true",
                       help="no sandbox at all: every file, command and address (or "
                            "JQMAGIC_NO_SANDBOX=1)")


def apply(args: argparse.Namespace) -> None:
    """Turn the sandbox on for an agent face, as its flags and the environment say."""
    global robots_honoured
    robots_honoured = not (getattr(args, "ignore_robots_txt", False)
                           or env_flag("JQMAGIC_IGNORE_ROBOTS_TXT"))
    if args.no_sandbox or env_flag("JQMAGIC_NO_SANDBOX"):
        configure(sandbox=False)
        return
    configure(sandbox=True,
              allowed_roots=list(args.allow_root) or env_paths("JQMAGIC_ALLOWED_ROOTS"),
              exec_allowed=args.allow_exec or env_flag("JQMAGIC_EXEC_ALLOWED"),
              private_addresses=(args.allow_private_addresses
                                 or env_flag("JQMAGIC_PRIVATE_ADDRESSES")))


def sandboxed_defaults() -> argparse.Namespace:
    """The flags of an agent face given none (the drop-in executables take no flags)."""
    return argparse.Namespace(allow_root=[], allow_exec=False, allow_private_addresses=False,
                              no_sandbox=False, ignore_robots_txt=False)

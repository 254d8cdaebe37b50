"""Tab in %jq over a YAML stream of several documents offers each document's keys, as over
JSON Lines: the program runs on each document (a Kubernetes manifest's '.metadata.' offered
only '.', the stream's array having no key). One document whose root is a list stays that
list."""

from __future__ import annotations

from jqmagic.core.complete import complete, forget


def test_a_yaml_streams_documents_are_each_an_input(tmp_path):
    forget()
    path = tmp_path / "deploy.yaml"
    path.write_text("kind: Namespace\nmetadata:\n  name: a\n---\n"
                    "kind: Deployment\nmetadata:\n  name: b\n  labels: {app: b}\nspec: {}\n")
    assert complete(".", source=str(path)).texts[:3] == [".kind", ".metadata", ".spec"]
    assert complete(".metadata.", source=str(path)).texts == [".name", ".labels"]
    assert complete(".[].", source=str(path), slurp=True).texts[:2] == [".kind", ".metadata"]


def test_one_yaml_document_that_is_a_list_is_that_list(tmp_path):
    forget()
    path = tmp_path / "list.yaml"
    path.write_text("- name: a\n- name: b\n")
    assert complete(".", source=str(path)).texts[0] == ".[]"
    assert complete(".[].", source=str(path)).texts == [".name"]

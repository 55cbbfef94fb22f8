"""A test helper shared by test_plot.py and test_report.py: a report's JSON text with one value
replaced by a raw token that Python's json would not write."""
import json


def with_token(doc, path, token):
    """The JSON text of doc with the value at path (a list of keys) replaced by the raw
    token, which may be a number Python's json would not write (1e400, NaN)."""
    doc = json.loads(json.dumps(doc))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "@@hostile@@"
    return json.dumps(doc).replace('"@@hostile@@"', token, 1)

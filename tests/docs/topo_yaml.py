# SPDX-License-Identifier: MIT
"""A YAML reader for checking topologies against docs/topology.schema.json
as an editor would: the YAML 1.2 core schema (what yaml-language-server
uses), not PyYAML's YAML 1.1 (where `yes` is true and `010` is 8), a key
given twice is an error, and mapping keys become JSON's strings."""
import re

import yaml


class DuplicateKey(yaml.YAMLError):
    pass


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with the YAML 1.2 core schema's implicit types."""


CoreLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", list("~nN") + [""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
     list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", list("-+.0123456789")),
]:
    CoreLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def _int(loader, node):
    s = loader.construct_scalar(node)
    sign = -1 if s.startswith("-") else 1
    s = s.lstrip("+-")
    if s.startswith("0x"):
        return sign * int(s[2:], 16)
    if s.startswith("0o"):
        return sign * int(s[2:], 8)
    return sign * int(s, 10)


def _key(k):
    if isinstance(k, bool):
        return "true" if k else "false"
    if k is None:
        return "null"
    return str(k)


def _mapping(loader, node):
    loader.flatten_mapping(node)
    out = {}
    for knode, vnode in node.value:
        key = _key(loader.construct_object(knode, deep=True))
        if key in out:
            raise DuplicateKey(f"duplicate key '{key}' at line "
                               f"{knode.start_mark.line + 1}")
        out[key] = loader.construct_object(vnode, deep=True)
    return out


CoreLoader.add_constructor("tag:yaml.org,2002:int", _int)
CoreLoader.add_constructor("tag:yaml.org,2002:map", _mapping)


def load(text):
    """The one document of text; yaml.YAMLError if YAML itself refuses."""
    return yaml.load(text, Loader=CoreLoader)

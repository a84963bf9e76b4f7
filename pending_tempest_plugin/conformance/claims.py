# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""The claims file: what the operator or vendor declares about the cloud.

YAML, one mapping whose keys are the options of ``[nova_conformance]``
(``pending_state_enabled: true``, ``host_status_policy_profile:
admin_only``...).  Claims are declared, never guessed: discovery reads
microversions from the cloud, never the policy profile or
``use_pending_state``.  One key of the runner's own, not an option:
``name``, a free label of the cloud for the report header (never its
identity, which the runner reads from the cloud).
"""

import types

import yaml

from pending_tempest_plugin.common import features
from pending_tempest_plugin import config as project_config

RUNNER_KEYS = ('name',)


class ClaimsError(Exception):
    """The claims file cannot be used; the message says why."""


def _options():
    return {opt.dest: opt for opt in project_config.NovaConformanceGroup}


def _is_bool(opt):
    return opt.type.__class__.__name__ == 'Boolean'


def _is_list(opt):
    return opt.type.__class__.__name__ == 'List'


def _is_dict(opt):
    return opt.type.__class__.__name__ == 'Dict'


def _dict_string(mapping):
    """A mapping as tempest.conf writes a DictOpt: KEY:VALUE,..."""
    return ','.join('%s:%s' % (k, mapping[k]) for k in sorted(mapping))


class _Loader(yaml.SafeLoader):
    """YAML with each number that has a fraction kept as it is written.

    Every claim is a string to its option's type, so nothing is lost; but
    a float would turn ``pending_state_microversion: 2.110`` into 2.11.
    """


def _float_as_written(loader, node):
    return loader.construct_scalar(node)


_Loader.add_constructor('tag:yaml.org,2002:float', _float_as_written)


def load(path):
    """The claims of ``path`` as a dict; ClaimsError if anything is off."""
    if path is None:
        return validate({}, '(no claims file)')
    try:
        with open(path) as f:
            data = yaml.load(f, Loader=_Loader)  # nosec: a SafeLoader
    except OSError as e:
        raise ClaimsError('cannot read the claims file %s: %s' % (path, e))
    except yaml.YAMLError as e:
        raise ClaimsError('the claims file %s is not YAML: %s' % (path, e))
    return validate({} if data is None else data, path)


def validate(data, where):
    """Typed claims of a mapping.

    Every option of [nova_conformance] that the mapping leaves out takes
    its default.
    """
    if not isinstance(data, dict):
        raise ClaimsError('%s: expected a mapping of [nova_conformance] '
                          'options, got %s' % (where, type(data).__name__))
    options = _options()
    problems = []
    claims = {}
    for key, value in data.items():
        if key in RUNNER_KEYS:
            continue
        opt = options.get(key)
        if opt is None:
            problems.append('unknown claim %r (known: %s)' % (
                key, ', '.join(sorted(list(options) + list(RUNNER_KEYS)))))
            continue
        if value is None:
            claims[key] = None
            continue
        if isinstance(value, bool) != (opt.type.__class__.__name__
                                       == 'Boolean'):
            problems.append('%s: %r is not a %s' % (
                key, value, 'boolean (true or false)'
                if opt.type.__class__.__name__ == 'Boolean'
                else 'string or number'))
            continue
        if isinstance(value, float) and key.endswith('_microversion'):
            # YAML reads 2.110 as the number 2.11: a microversion is
            # compared part by part, never as a number.
            problems.append('%s: %r is a number; write the microversion as '
                            'a string (%s: "2.110"), YAML reads 2.110 as '
                            '2.11' % (key, value, key))
            continue
        if isinstance(value, (list, tuple)) and not _is_list(opt):
            problems.append('%s: %r is not a string or number'
                            % (key, value))
            continue
        if isinstance(value, dict):
            if not _is_dict(opt):
                problems.append('%s: %r is not a string or number'
                                % (key, value))
                continue
            if not all(isinstance(v, str) and v
                       for v in list(value) + list(value.values())):
                problems.append('%s: %r is not a mapping of names to '
                                'names' % (key, value))
                continue
            value = _dict_string(value)
        try:
            claims[key] = opt.type(
                value if isinstance(value, (bool, list, tuple))
                else str(value))
        except ValueError as e:
            problems.append('%s: %s' % (key, e))
    for key, opt in options.items():
        claims.setdefault(key, opt.default)
    if not problems:
        problems.extend(features.config_problems(
            types.SimpleNamespace(**claims)))
    if problems:
        raise ClaimsError('%s: %s' % (where, '; '.join(problems)))
    claims['name'] = str(data.get('name') or '')
    return claims


def defaults():
    """Every [nova_conformance] option with its default value."""
    return {key: opt.default for key, opt in _options().items()}


def from_conf(items, where):
    """Typed claims of tempest.conf's [nova_conformance] (string values).

    ``items`` are (option, value) pairs; options the plugin does not know
    are left to Tempest.  ValueError names each value that does not parse.
    """
    options = _options()
    claims = defaults()
    problems = []
    for key, value in items:
        opt = options.get(key)
        if opt is None:
            continue
        value = value.strip()
        if not value:
            claims[key] = ([] if _is_list(opt) else
                           {} if _is_dict(opt) else None)
            continue
        try:
            claims[key] = opt.type(value)
        except ValueError as e:
            problems.append('[nova_conformance] %s = %r is not a %s' % (
                key, value, 'boolean' if _is_bool(opt)
                else 'valid value (%s)' % e))
    if problems:
        raise ValueError('%s: %s' % (where, '; '.join(problems)))
    return claims


def of_conf(conf, where):
    """Typed claims of a tempest.conf's ConfigParser (``from_conf``)."""
    items = (conf.items('nova_conformance')
             if conf.has_section('nova_conformance') else [])
    return from_conf(items, where)


def nova_conformance_options(claims):
    """(option, value) pairs for tempest.conf: every claim that is set.

    Defaults are written too, so that tempest.conf (and its redacted copy
    among the artifacts) says everything the run was told.
    """
    options = _options()
    pairs = []
    for key in sorted(options):
        value = claims.get(key)
        if value is None or value == [] or value == {}:
            continue
        if isinstance(value, dict):
            value = _dict_string(value)
        elif isinstance(value, bool):
            value = 'true' if value else 'false'
        elif isinstance(value, (list, tuple)):
            value = ','.join(value)
        pairs.append((key, str(value)))
    return pairs

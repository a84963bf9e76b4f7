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
"""The host_status policy profiles (``policy_profiles.yaml``).

The one source of truth of the profile names, their descriptions and the
nova policy rules each writes: the option's choices, the embedded cloud's
policy template and the devstack plugin all read the data file.  Only
PyYAML is imported here: the devstack plugin loads this module from a
plugin checkout that is not installed (``devstack/pending_policy.py``).
"""

import os

import yaml

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    'policy_profiles.yaml')


class ProfileError(Exception):
    """The profiles file, a profile name or a policy file is unusable."""


def load(path=PATH):
    """``{name: {'description': str, 'rules': {rule: check}}}``, in order."""
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict) or not data:
        raise ProfileError('%s: expected a mapping of profiles' % path)
    profiles = {}
    for name, body in data.items():
        if (not isinstance(body, dict)
                or not isinstance(body.get('description'), str)
                or not isinstance(body.get('rules'), dict)
                or not all(isinstance(k, str) and isinstance(v, str)
                           for k, v in body['rules'].items())):
            raise ProfileError('%s: profile %r needs a description (text) '
                               'and rules (a mapping of rule to check '
                               'string)' % (path, name))
        profiles[name] = {'description': body['description'].strip(),
                          'rules': dict(body['rules'])}
    return profiles


PROFILES = load()
NAMES = tuple(PROFILES)


def owned_rules(profiles=None):
    """Every rule some profile writes: a writer replaces all of them."""
    profiles = PROFILES if profiles is None else profiles
    return {rule for body in profiles.values() for rule in body['rules']}


def rules(name, profiles=None):
    """The rules of profile ``name``; ProfileError names the known ones."""
    profiles = PROFILES if profiles is None else profiles
    if name not in profiles:
        raise ProfileError('unknown host_status policy profile %r (known: '
                           '%s)' % (name, ', '.join(profiles)))
    return dict(profiles[name]['rules'])


def merge(policy, name, profiles=None):
    """``policy`` (a mapping) with profile ``name``'s rules in place.

    Every rule a profile owns is dropped first, so switching profiles
    leaves no rule of the previous one; every other rule is kept as is.
    """
    profiles = PROFILES if profiles is None else profiles
    wanted = rules(name, profiles)
    owned = owned_rules(profiles)
    merged = {k: v for k, v in policy.items() if k not in owned}
    merged.update(wanted)
    return merged

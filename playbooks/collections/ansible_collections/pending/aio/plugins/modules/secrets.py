#!/usr/bin/python
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

DOCUMENTATION = r'''
module: secrets
short_description: The embedded cloud's own passwords, generated once
description:
  - Reads the cloud's secrets file (JSON, mode 0600); generates each named
    secret it lacks (random letters and digits, safe in URLs and ini files)
    and writes the file back, owner-readable only.
  - A cloud built before the file existed (I(existing_cloud)) gets the
    I(legacy) values, which its databases and users already hold.
  - A non-empty I(overrides) value wins and is remembered in the file.
  - C(down --purge) removes the file with the data it protects.
options:
  path: {description: The secrets file., type: path, required: true}
  names: {description: Names of the secrets., type: list, elements: str,
          required: true}
  existing_cloud: {description: The cloud has data but no secrets file.,
                   type: bool, default: false}
  legacy: {description: Values of a cloud built before the file.,
           type: dict, default: {}}
  overrides: {description: Values given by the user (empty = generated).,
              type: dict, default: {}}
  length: {description: Length of a generated secret., type: int,
           default: 32}
'''

RETURN = r'''
secrets: {description: name -> value., type: dict, returned: always}
legacy: {description: Whether the legacy values were taken., type: bool,
         returned: always}
'''

import json  # noqa: E402
import os  # noqa: E402
import secrets as _random  # noqa: E402
import string  # noqa: E402

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

ALPHABET = string.ascii_letters + string.digits


def generate(length):
    return ''.join(_random.choice(ALPHABET) for _ in range(length))


def read(path):
    """The stored secrets, or None when there is no file."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def resolve(stored, names, existing_cloud=False, legacy=None,
            overrides=None, length=32):
    """(secrets, legacy taken) from the stored ones and the inputs."""
    took_legacy = stored is None and existing_cloud
    base = dict(stored or (legacy if took_legacy else {}) or {})
    result = {}
    for name in names:
        value = (overrides or {}).get(name) or base.get(name)
        result[name] = str(value) if value else generate(length)
    return result, took_legacy


def write(path, values):
    """Write atomically, mode 0600 from the first byte."""
    tmp = path + '.tmp'
    if os.path.exists(tmp):
        os.unlink(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, 'w') as f:
        json.dump(values, f, indent=1, sort_keys=True)
        f.write('\n')
    os.replace(tmp, path)


def run(module):
    p = module.params
    stored = read(p['path'])
    values, took_legacy = resolve(stored, p['names'], p['existing_cloud'],
                                  p['legacy'], p['overrides'], p['length'])
    mode_ok = stored is None or (
        os.stat(p['path']).st_mode & 0o7777) == 0o600
    changed = stored != values or not mode_ok
    if changed and not module.check_mode:
        if stored == values:
            os.chmod(p['path'], 0o600)
        else:
            write(p['path'], values)
    module.exit_json(changed=changed, secrets=values, legacy=took_legacy)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type='path', required=True),
            names=dict(type='list', elements='str', required=True),
            existing_cloud=dict(type='bool', default=False),
            # Not no_log: Ansible would then mask these values wherever they
            # appear in the result, the returned secrets included.  The
            # task that calls this module has no_log: true.
            legacy=dict(type='dict', default={}, no_log=False),
            overrides=dict(type='dict', default={}, no_log=False),
            length=dict(type='int', default=32),
        ),
        supports_check_mode=True)
    run(module)


if __name__ == '__main__':
    main()

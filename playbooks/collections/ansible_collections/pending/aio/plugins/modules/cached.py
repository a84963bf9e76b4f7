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
"""Ansible module: run a command once per distinct input."""

DOCUMENTATION = r'''
module: cached
short_description: Run a command once per distinct input, replay after
description:
  - Runs I(command) with I(input) on its standard input and stores its
    output in I(file) under a hash of I(key), I(input) and the text of
    every C(.py) script in I(command). While the hash is unchanged, the
    stored output is returned and nothing runs.
  - I(input) often holds passwords, so it is C(no_log) and reaches the
    command on standard input only.
  - The task is changed when the command ran and its last output line is
    C(CHANGED), or its last line is JSON whose C(changed) is true.
  - In check mode a command that would run does not; the stored output
    (if any) is returned, with changed true.
options:
  file: {description: Where the output is stored (mode 0600), type: path,
         required: true}
  key: {description: Extra text of the hash, type: str, default: ''}
  command: {description: Command (argv), type: list, elements: str,
            required: true}
  input: {description: Standard input of the command, type: str,
          default: '', no_log: true}
  env: {description: Extra environment, type: dict, default: {}}
'''

RETURN = r'''
ran: {description: Whether the command ran, type: bool, returned: always}
stdout: {description: Its output (or the stored one), type: str,
         returned: always}
stdout_lines: {description: The same, by line, type: list,
               returned: always}
'''

import json  # noqa: E402

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_cache)


def said_changed(output):
    lines = output.strip().splitlines()
    if not lines:
        return False
    if lines[-1] == 'CHANGED':
        return True
    try:
        return bool(json.loads(lines[-1]).get('changed'))
    except (ValueError, AttributeError):
        return False


def main():
    module = AnsibleModule(
        argument_spec=dict(
            file=dict(type='path', required=True),
            key=dict(type='str', default='', no_log=False),
            command=dict(type='list', elements='str', required=True),
            input=dict(type='str', default='', no_log=True),
            env=dict(type='dict', default={})),
        supports_check_mode=True)
    p = module.params
    try:
        ran, out, err = aio_cache.cached(
            p['file'], p['key'], p['command'], p['input'].encode(),
            env=p['env'], check=module.check_mode)
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    changed = ran and (module.check_mode or said_changed(out))
    module.exit_json(changed=changed, ran=ran, stdout=out, stderr=err,
                     stdout_lines=out.splitlines())


if __name__ == '__main__':
    main()

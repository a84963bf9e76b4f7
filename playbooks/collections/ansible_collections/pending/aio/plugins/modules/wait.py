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
"""Ansible module: wait for a condition, with a bound."""

DOCUMENTATION = r'''
module: wait
short_description: Wait until a shell condition succeeds
description:
  - Runs I(condition) (a shell command) every second until it exits 0;
    past I(timeout) the task fails naming I(name), the condition and
    I(log). In check mode it does not run (a condition may act, as
    nova-manage cell_v2 discover_hosts does, and a cloud that check mode
    would start is not running).
options:
  name: {description: The service waited for, type: str, required: true}
  condition: {description: Shell command, type: str, required: true}
  timeout: {description: Seconds, type: int, default: 60}
  log: {description: The log to read when it fails, type: path}
  env:
    description: Extra environment of the condition (secrets go here).
    type: dict
    default: {}
    no_log: true
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_supervisor)


def main():
    module = AnsibleModule(
        argument_spec=dict(name=dict(type='str', required=True),
                           condition=dict(type='str', required=True),
                           timeout=dict(type='int', default=60),
                           log=dict(type='path'),
                           env=dict(type='dict', default={}, no_log=True)),
        supports_check_mode=True)
    p = module.params
    if module.check_mode:
        module.exit_json(changed=False, skipped=True,
                         msg='not run in check mode')
    try:
        waited = aio_supervisor.wait_until(p['condition'], p['timeout'],
                                           p['name'], p['log'], env=p['env'])
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=False, waited=round(waited, 1))


if __name__ == '__main__':
    main()

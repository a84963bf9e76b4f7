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
"""Ansible module: supervised programs running and answering."""

DOCUMENTATION = r'''
module: programs
short_description: Start or restart supervised programs; wait for them
description:
  - Applies supervisord's configuration (update), starts every program of
    I(programs) that is not running and restarts one whose command line or
    configuration files changed since it last answered (its fingerprint,
    kept in I(state_dir)); then waits until each answers on its URL or port.
  - A program that dies fails the task at once with its log's tail.
  - A running program whose process is stopped by a signal (a nova-compute
    an interrupted test run left frozen) gets SIGCONT, a change.
  - Check mode reports the programs that would start or restart.
options:
  supervisor:
    description: "{conf, ctl, daemon, pidfile} of the cloud's supervisord."
    type: dict
    required: true
  programs:
    description: >-
      [{name, command, configs?, url? | port? | socket?, priority?}]; a
      socket is a unix socket's path.  Taken in waves
      of equal priority: the stopped ones start one by one, then the
      changed ones restart at once.
    type: list
    elements: dict
    required: true
  state_dir: {description: Where fingerprints are kept, type: path,
              required: true}
  log_dir: {description: The programs' logs, type: path, required: true}
  timeout: {description: Seconds to wait for them, type: int, default: 180}
  changed_configs:
    description: >-
      In check mode, the files the files step would write (its C(written)):
      a program reading one would restart.
    type: list
    elements: str
    default: []
'''

RETURN = r'''
restarted: {description: Programs started, restarted or thawed, type: list,
            returned: always}
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_supervisor)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            supervisor=dict(type='dict', required=True),
            programs=dict(type='list', elements='dict', required=True),
            state_dir=dict(type='path', required=True),
            log_dir=dict(type='path', required=True),
            timeout=dict(type='int', default=180),
            changed_configs=dict(type='list', elements='str', default=[])),
        supports_check_mode=True)
    p = module.params
    sup = aio_supervisor.Supervisor(**p['supervisor'])
    try:
        did = aio_supervisor.ensure(sup, p['programs'], p['state_dir'],
                                    p['log_dir'], p['timeout'],
                                    check=module.check_mode,
                                    changed_configs=p['changed_configs'])
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=bool(did), restarted=did)


if __name__ == '__main__':
    main()

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
"""Ansible module: every port the cloud needs is free or already ours."""

DOCUMENTATION = r'''
module: ports_free
short_description: Fail naming the holder of a port the cloud needs
description:
  - Read only. A port held by a process under the cloud's supervisord is
    the cloud's own; any other holder fails the task with its pid and
    command line.
options:
  ports:
    description: Service name to TCP port.
    type: dict
    required: true
  supervisor_pidfile:
    description: The cloud's supervisord pid file.
    type: path
    required: true
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_ports)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            ports=dict(type='dict', required=True),
            supervisor_pidfile=dict(type='path', required=True)),
        supports_check_mode=True)
    try:
        aio_ports.check_ports(module.params['ports'],
                              module.params['supervisor_pidfile'])
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=False)


if __name__ == '__main__':
    main()

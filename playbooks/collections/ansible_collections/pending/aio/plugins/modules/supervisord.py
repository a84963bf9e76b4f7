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
"""Ansible module: the cloud's process supervisor running."""

DOCUMENTATION = r'''
module: supervisord
short_description: Start the cloud's supervisord unless it runs
description:
  - Starts supervisord with I(conf) unless it already runs, then waits
    until it answers on its socket; changed only when it started it.
options:
  conf: {description: supervisord.conf, type: path, required: true}
  ctl: {description: supervisorctl, type: path, required: true}
  daemon: {description: supervisord, type: path, required: true}
  pidfile: {description: Its pid file, type: path, required: true}
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_supervisor)

SUPERVISOR = dict(conf=dict(type='path', required=True),
                  ctl=dict(type='path', required=True),
                  daemon=dict(type='path', required=True),
                  pidfile=dict(type='path', required=True))


def main():
    module = AnsibleModule(argument_spec=SUPERVISOR,
                           supports_check_mode=True)
    sup = aio_supervisor.Supervisor(**module.params)
    try:
        started = sup.start_daemon(check=module.check_mode)
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=started)


if __name__ == '__main__':
    main()

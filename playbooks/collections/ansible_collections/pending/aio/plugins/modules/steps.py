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
"""Ansible module: one-shot bootstrap commands, each run once."""

DOCUMENTATION = r'''
module: steps
short_description: Run bootstrap commands concurrently, each once
description:
  - Runs every step whose marker file does not exist, all at once, each
    logging to its own file; a step that succeeds writes its marker.
  - The first failed step (in the given order) fails the task naming its
    service, what failed and its log, with the log's tail.
options:
  steps:
    description: The steps.
    type: list
    elements: dict
    required: true
    suboptions:
      name: {description: The service, type: str, required: true}
      what: {description: What the step does, type: str, required: true}
      log: {description: Log file, type: path, required: true}
      cmd: {description: Command (argv), type: list, elements: str,
            required: true}
      marker: {description: Marker file (none, run every time), type: path}
      creates: {description: A file the command makes (skip if present),
                type: path}
      cwd: {description: Working directory, type: path}
      env:
        description: Extra environment (no secret).
        type: dict
      secret_env:
        description: >-
          Extra environment holding secrets (never in cmd): no_log, so its
          values are masked in every result.
        type: dict
        no_log: true
'''

RETURN = r'''
ran:
  description: Names of the steps run (in check mode, that would run).
  type: list
  returned: always
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_steps)

STEP = dict(name=dict(type='str', required=True),
            what=dict(type='str', required=True),
            log=dict(type='path', required=True),
            cmd=dict(type='list', elements='str', required=True),
            marker=dict(type='path'),
            creates=dict(type='path'),
            cwd=dict(type='path'),
            env=dict(type='dict'),
            secret_env=dict(type='dict', no_log=True))


def main():
    module = AnsibleModule(
        argument_spec=dict(steps=dict(type='list', elements='dict',
                                      required=True, options=STEP)),
        supports_check_mode=True)
    try:
        ran = aio_steps.run_steps(module.params['steps'],
                                  check=module.check_mode)
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=bool(ran), ran=ran)


if __name__ == '__main__':
    main()

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
"""Ansible module: the cloud's directories and configuration files."""

DOCUMENTATION = r'''
module: files
short_description: Write the cloud's directories and files in one run
description:
  - Creates missing directories (owned by I(owner) where given) and writes
    each file whose content or mode differs, atomically.
  - Check mode changes nothing; diff mode shows each file's change, except
    the content of a file marked I(secret).
options:
  dirs:
    description: "[{path, owner?, mode?}]"
    type: list
    elements: dict
    default: []
  files:
    description: "[{path, content, mode? (default 0644)}]"
    type: list
    elements: dict
    default: []
  secret_files:
    description: >-
      Files that hold a secret, as I(files) (mode default 0600): their
      content is no_log and in no diff.
    type: list
    elements: dict
    default: []
    suboptions:
      path: {description: The file, type: path, required: true}
      content: {description: Its content, type: str, required: true,
                no_log: true}
      mode: {description: Its mode, type: str, default: '0600'}
'''

RETURN = r'''
written: {description: Paths created or changed, type: list,
          returned: always}
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_files)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            dirs=dict(type='list', elements='dict', default=[]),
            files=dict(type='list', elements='dict', default=[]),
            secret_files=dict(
                type='list', elements='dict', default=[],
                options=dict(path=dict(type='path', required=True),
                             content=dict(type='str', required=True,
                                          no_log=True),
                             mode=dict(type='str', default='0600')))),
        supports_check_mode=True)
    p = module.params
    secret = [dict(f, secret=True) for f in p['secret_files']]
    spec = {'dirs': p['dirs'], 'files': p['files'] + secret}
    try:
        did, diffs = aio_files.write_files(spec, check=module.check_mode)
    except (aio_common.AioError, OSError, KeyError) as exc:
        module.fail_json(msg=str(exc))
    result = dict(changed=bool(did), written=did)
    if module._diff:
        result['diff'] = diffs
    module.exit_json(**result)


if __name__ == '__main__':
    main()

#!/bin/bash
# pending-tempest-plugin devstack plugin: configures nova for the behaviours
# this suite verifies and tells Tempest what the cloud declares.

function pending_configure_nova {
    if [[ "$NOVA_USE_PENDING_STATE" == "True" ]]; then
        iniset $NOVA_CONF DEFAULT use_pending_state True
    fi
    local policy=/etc/nova/policy.yaml
    case "$NOVA_HOST_STATUS_POLICY_PROFILE" in
        admin_or_owner)
            echo '"os_compute_api:servers:show:host_status": "rule:admin_api or project_id:%(project_id)s"' >> $policy
            ;;
        unknown_only)
            echo '"os_compute_api:servers:show:host_status:unknown-only": "rule:admin_api or project_id:%(project_id)s"' >> $policy
            ;;
    esac
    if [[ -f $policy ]]; then
        iniset $NOVA_CONF oslo_policy policy_file $policy
    fi
}

function pending_configure_tempest {
    iniset $TEMPEST_CONFIG nova_conformance host_status_policy_profile \
        "$NOVA_HOST_STATUS_POLICY_PROFILE"
    iniset $TEMPEST_CONFIG nova_conformance pending_state_enabled \
        "$NOVA_USE_PENDING_STATE"
}

if [[ "$1" == "stack" && "$2" == "post-config" ]]; then
    pending_configure_nova
elif [[ "$1" == "stack" && "$2" == "test-config" ]]; then
    pending_configure_tempest
fi

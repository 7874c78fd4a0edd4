import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import { ADD_MONITOR_PARAM, type AddMonitorModalProps } from '@bimi/contracts/remote-modules';
import { RemoteWidget } from '../../federation/RemoteWidget';
import { loadRemoteModule } from '../../federation/registry';
import { CollapsedTooltip } from './CollapsedTooltip';

const preload = () => loadRemoteModule('account', './AddMonitorModal').catch(() => {});

/**
 * Spec §2: "An Add Monitor button opens a modal" — the account remote's ./AddMonitorModal,
 * loaded on first use (or hover) and isolated by its own error boundary, as the cart drawer is.
 */
export function AddMonitorButton({ variant }: { variant: 'sidebar' | 'sidebar-collapsed' | 'top-bar' }) {
  const [params, setParams] = useSearchParams();
  const linked = params.get(ADD_MONITOR_PARAM);
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const showing = open || linked !== null;
  if (showing && !mounted) setMounted(true);
  const onClose = () => {
    setOpen(false);
    if (params.has(ADD_MONITOR_PARAM)) {
      const next = new URLSearchParams(params);
      next.delete(ADD_MONITOR_PARAM);
      setParams(next, { replace: true });
    }
  };
  const openModal = () => setOpen(true);
  const trigger =
    variant === 'sidebar' ? (
      <Button variant="contained" startIcon={<AddCircleOutline />} onClick={openModal} onPointerEnter={preload} sx={{ mx: 0.5, mb: 1, justifyContent: 'flex-start', borderRadius: 2 }}>
        Add Monitor
      </Button>
    ) : variant === 'sidebar-collapsed' ? (
      <CollapsedTooltip title="Add Monitor">
        <IconButton color="primary" onClick={openModal} onPointerEnter={preload} aria-label="Add Monitor" sx={{ alignSelf: 'center', mb: 1 }}>
          <AddCircleOutline />
        </IconButton>
      </CollapsedTooltip>
    ) : (
      <Button size="small" variant="contained" startIcon={<AddCircleOutline />} onClick={openModal} sx={{ ml: 'auto', borderRadius: 2, whiteSpace: 'nowrap' }}>
        Add Monitor
      </Button>
    );
  return (
    <>
      {trigger}
      {mounted && (
        <RemoteWidget<AddMonitorModalProps>
          remote="account"
          expose="./AddMonitorModal"
          props={{ open: showing, onClose, initialDomain: open ? '' : (linked ?? '') }}
          visible={showing}
          onDismiss={onClose}
        />
      )}
    </>
  );
}

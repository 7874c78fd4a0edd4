import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { AGENCY_LEVEL_OPTIONS, type AgencyLevel } from '@bimi/catalog/products';

/**
 * The government mark's agency level. A module of its own: MUI's select brings its menu, popover
 * and modal, which only this field uses, and the other certificate pages load none of them.
 */
export function AgencyLevelField({ value, onChange }: { value: AgencyLevel; onChange: (level: AgencyLevel) => void }) {
  return (
    <TextField select label="Agency level" value={value} onChange={(event) => onChange(event.target.value as AgencyLevel)} sx={{ width: { xs: '100%', sm: 200 } }}>
      {AGENCY_LEVEL_OPTIONS.map((level) => (
        <MenuItem key={level} value={level}>
          {level}
        </MenuItem>
      ))}
    </TextField>
  );
}

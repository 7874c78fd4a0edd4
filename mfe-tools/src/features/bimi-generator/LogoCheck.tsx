import { useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { checkSvgTinyPs, SVG_MAX_BYTES, type SvgCheck } from '@bimi/email-auth/svg';
import { CheckList } from '../../components/CheckList';
import { FilePicker } from '../../components/FilePicker';
import { InboxPreview, svgDataUrl } from '../../components/InboxPreview';
import { VerdictBanner } from '../../components/VerdictBanner';

/** Anything past this is not read at all (it fails the 32 KB rule anyway, and the tab stays responsive). */
const READ_LIMIT = 1024 * 1024;

/**
 * Checks a logo file against SVG Tiny PS in the browser, before it is published, and shows it
 * as the inbox would. The file is read locally and never uploaded.
 */
export function LogoCheck({ sender }: { sender: string }) {
  const [result, setResult] = useState<{ fileName: string; report: SvgCheck; svg: string }>();
  const [problem, setProblem] = useState<string>();

  async function choose(file: File) {
    if (file.size > READ_LIMIT) {
      setResult(undefined);
      setProblem(`${file.name} is ${Math.round(file.size / 1024)} KB; a BIMI logo may be at most ${SVG_MAX_BYTES / 1024} KB.`);
      return;
    }
    const svg = await file.text();
    setProblem(undefined);
    setResult({ fileName: file.name, report: checkSvgTinyPs(svg), svg });
  }

  const readable = result && result.report.score > 0;
  return (
    <Box component="section" aria-label="Check your logo" sx={{ mt: 6 }}>
      <Typography variant="h2" gutterBottom>
        Check your logo file
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 720 }}>
        Choose the SVG you will publish at the logo address: it is checked against SVG Tiny PS here, in your browser, and shown as mailboxes will show it. The file is not uploaded.
      </Typography>
      <FilePicker buttonLabel="Choose an SVG file" inputLabel="Logo file (SVG)" accept=".svg,image/svg+xml" fileName={result?.fileName} onFile={(file) => void choose(file)} />
      {problem && (
        <Typography role="alert" color="error" sx={{ mt: 1.5 }}>
          {problem}
        </Typography>
      )}
      {result && (
        <Box data-testid="logo-check" sx={{ mt: 3 }}>
          <VerdictBanner subject={result.fileName} checks={result.report.checks} score={result.report.score} />
          {readable && (
            <Box sx={{ mt: 3 }}>
              <InboxPreview logoUrl={svgDataUrl(result.svg)} sender={sender} />
            </Box>
          )}
          <Box sx={{ mt: 3 }}>
            <CheckList checks={result.report.checks} />
          </Box>
        </Box>
      )}
    </Box>
  );
}

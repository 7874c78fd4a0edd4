import { LineChart } from '@mui/x-charts/LineChart';
import type { HistoryPoint } from '@bimi/contracts/monitors';

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/**
 * The health score over time; a run that found record changes carries a mark. Loaded lazily
 * (React.lazy) so @mui/x-charts never reaches the shell's first load or the dashboard.
 */
export default function HistoryChart({ history }: { history: HistoryPoint[] }) {
  const dates = history.map((point) => new Date(point.at));
  return (
    <LineChart
      height={240}
      margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
      xAxis={[{ data: dates, scaleType: 'time', valueFormatter: (value: Date, context) => (context.location === 'tick' ? dayFormat.format(value) : timeFormat.format(value)) }]}
      yAxis={[{ min: 0, max: 100, width: 36 }]}
      series={[
        {
          data: history.map((point) => point.score),
          label: 'Health score',
          color: '#1a5fb4',
          curve: 'monotoneX',
          showMark: ({ index }) => (history[index]?.changes ?? 0) > 0 || history.length === 1,
          valueFormatter: (value, { dataIndex }) => {
            const changes = history[dataIndex]?.changes ?? 0;
            return `${value ?? ''}${changes > 0 ? ` · ${changes} record change${changes === 1 ? '' : 's'}` : ''}`;
          },
        },
      ]}
      hideLegend
    />
  );
}

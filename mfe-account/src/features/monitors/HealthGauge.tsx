import { Gauge, gaugeClasses } from '@mui/x-charts/Gauge';

/** Loaded lazily (React.lazy): @mui/x-charts is only ever downloaded on a monitor page. */
export default function HealthGauge({ score }: { score: number }) {
  const color = score >= 80 ? '#2e7d32' : score >= 50 ? '#ed6c02' : '#d32f2f';
  return (
    <Gauge
      width={160}
      height={120}
      value={score}
      valueMin={0}
      valueMax={100}
      startAngle={-110}
      endAngle={110}
      innerRadius="74%"
      cornerRadius="50%"
      text={({ value }) => `${value ?? 0}`}
      aria-hidden
      sx={{ [`& .${gaugeClasses.valueText}`]: { fontSize: 34, fontWeight: 700 }, [`& .${gaugeClasses.valueArc}`]: { fill: color } }}
    />
  );
}

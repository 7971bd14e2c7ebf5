/** Dollars the way a cost column reads: "$0.42", "$12.30", "$1,234", and "<$0.01" for a fraction of a cent. */
export function formatUsd(value: number): string {
  if (value > 0 && value < 0.01) return '<$0.01';
  if (value >= 1000) return `$${Math.round(value).toLocaleString('en-US')}`;
  return `$${value.toFixed(2)}`;
}

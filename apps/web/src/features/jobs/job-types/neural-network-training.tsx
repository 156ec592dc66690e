import {
  neuralNetworkTrainingResultSchema,
  type NeuralNetworkTrainingResult,
} from '@fabric/contract';
import { Download } from 'lucide-react';
import { useId } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Button } from '@/components/ui/button';
import { downloadJson } from '@/lib/download';
import { Fact, Facts, integer, Section } from './result-parts';

// A trained network: its final metrics, the loss and accuracy per epoch as two charts (each also
// said in words), the data it learned from, and its weights as a file.

type Epoch = NeuralNetworkTrainingResult['history'][number];

const CHART_HEIGHT = 220;
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

function formatRatio(value: number | null): string {
  return value === null ? 'No validation set' : percent.format(value);
}

/** The curve in words, for screen readers: first and last epoch, and the best validation value. */
export function describeCurve(
  history: readonly Epoch[],
  metric: 'loss' | 'accuracy',
  format: (value: number) => string,
): string {
  const first = history[0];
  const last = history.at(-1);
  if (!first || !last) return 'No epochs were run.';
  const validation = metric === 'loss' ? last.val_loss : last.val_accuracy;
  const training = `Training ${metric} went from ${format(first[metric])} at epoch 1 to ${format(last[metric])} at epoch ${last.epoch}`;
  return validation === null
    ? `${training}.`
    : `${training}; validation ${metric} ended at ${format(validation)}.`;
}

function Curve({
  history,
  metric,
  title,
  format,
}: {
  history: readonly Epoch[];
  metric: 'loss' | 'accuracy';
  title: string;
  format: (value: number) => string;
}) {
  const summaryId = useId();
  const validationKey = metric === 'loss' ? 'val_loss' : 'val_accuracy';
  const hasValidation = history.some((epoch) => epoch[validationKey] !== null);
  return (
    <figure aria-describedby={summaryId} className="grid gap-2">
      <h3 className="text-sm font-medium">{title}</h3>
      <div style={{ height: CHART_HEIGHT }} className="w-full" aria-hidden="true">
        <ResponsiveContainer
          width="100%"
          height="100%"
          initialDimension={{ width: 560, height: CHART_HEIGHT }}
        >
          <LineChart
            data={[...history]}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis
              dataKey="epoch"
              tickLine={false}
              axisLine={false}
              interval="preserveStartEnd"
              minTickGap={20}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
            />
            <YAxis
              tickFormatter={format}
              tickLine={false}
              axisLine={false}
              width={56}
              domain={metric === 'accuracy' ? [0, 1] : [0, 'auto']}
              tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
            />
            <Tooltip
              formatter={(value) => (typeof value === 'number' ? format(value) : String(value))}
              labelFormatter={(epoch) => (typeof epoch === 'number' ? `Epoch ${epoch}` : '')}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line
              type="monotone"
              dataKey={metric}
              name="Training"
              stroke="var(--primary)"
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
            {hasValidation ? (
              <Line
                type="monotone"
                dataKey={validationKey}
                name="Validation"
                stroke="var(--chart-2, #f59e0b)"
                strokeWidth={2}
                strokeDasharray="5 3"
                dot={false}
                isAnimationActive={false}
              />
            ) : null}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption id={summaryId} className="sr-only">
        {describeCurve(history, metric, format)}
      </figcaption>
    </figure>
  );
}

export const WEIGHTS_FILE_NAME = 'network-weights.json';

/** Saves the trained network (layers, activations, float32 weights) as a JSON file. */
function downloadWeights(result: NeuralNetworkTrainingResult): void {
  downloadJson(WEIGHTS_FILE_NAME, {
    dataset: result.dataset,
    parameters: result.parameters,
    weights: result.weights,
  });
}

function NeuralNetworkTrainingResultView({ result }: { result: NeuralNetworkTrainingResult }) {
  const layers = result.weights.layers.map((layer) => layer.kernel_shape[1]);
  return (
    <div className="grid gap-5">
      <Facts columns={3}>
        <Fact label="Validation accuracy">
          <span className="tabular-nums">{formatRatio(result.final.val_accuracy)}</span>
        </Fact>
        <Fact label="Training accuracy">
          <span className="tabular-nums">{percent.format(result.final.accuracy)}</span>
        </Fact>
        <Fact label="Final loss">
          <span className="tabular-nums">{decimal.format(result.final.loss)}</span>
        </Fact>
        <Fact label="Epochs">
          <span className="tabular-nums">{integer.format(result.history.length)}</span>
        </Fact>
        <Fact label="Parameters">
          <span className="tabular-nums">{integer.format(result.parameters)}</span>
        </Fact>
        <Fact label="Layers">
          <span className="tabular-nums">{[result.dataset.features, ...layers].join(' → ')}</span>
        </Fact>
      </Facts>
      <div className="grid gap-5 lg:grid-cols-2">
        <Curve
          history={result.history}
          metric="loss"
          title="Loss per epoch"
          format={(value) => decimal.format(value)}
        />
        <Curve
          history={result.history}
          metric="accuracy"
          title="Accuracy per epoch"
          format={(value) => percent.format(value)}
        />
      </div>
      <Section title="Dataset">
        <p className="text-sm text-muted-foreground">
          {result.dataset.name}: {integer.format(result.dataset.samples)} samples of{' '}
          {integer.format(result.dataset.features)} features in{' '}
          {integer.format(result.dataset.classes)} classes;{' '}
          {integer.format(result.dataset.training_samples)} trained on,{' '}
          {integer.format(result.dataset.validation_samples)} held out for validation.
        </p>
      </Section>
      <div>
        <Button variant="outline" size="sm" onClick={() => downloadWeights(result)}>
          <Download aria-hidden="true" />
          Download weights
        </Button>
      </div>
    </div>
  );
}

export function neuralNetworkTrainingResultView(result: Record<string, unknown>) {
  const parsed = neuralNetworkTrainingResultSchema.safeParse(result);
  return parsed.success ? <NeuralNetworkTrainingResultView result={parsed.data} /> : null;
}

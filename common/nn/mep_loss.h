/* mep_loss: the label-smoothed KL loss of masked-entity prediction (golden README,
 * official Loss_Compute + nn.KLDivLoss(reduction='batchmean')).
 *   target[b,v] = 1−η if v == label_b else η/(V−1)
 *   loss = (1/B) Σ_b Σ_v target·(ln target − logp)      (entropy term included)
 *   ∂loss/∂logp = −target/B
 * Returns the loss (computed in double). dlogp [B,V] is overwritten when not NULL. */
#ifndef PROBEXPAN_MEP_LOSS_H
#define PROBEXPAN_MEP_LOSS_H

double mep_loss(const float *logp, const int *labels, int B, int V, double eta,
                float *dlogp);

#endif
